#pragma once

#include "support/scratch.h"

// Makes DIR (under the scratch directory) a root filesystem holding the host's /bin/sh
// and the libraries it loads: enough to start a container that runs shell scripts.
inline void make_shell_rootfs(const Scratch& scratch, const std::string& dir)
{
    scratch.sh("mkdir -p " + dir + "/bin && cp /bin/sh " + dir
        + "/bin/sh && for lib in $(ldd /bin/sh | grep -o '/[^ ]*'); do mkdir -p " + dir + "$(dirname $lib); cp $lib "
        + dir + "$lib; done");
}
