#pragma once

#include "support/scratch.h"

#include <string>

namespace dlenv::testing {

// An OCI layout under the scratch holding a Python (tests/fixtures/python_base):
// `kind` "debian" (this machine's Debian python3) or "local X.Y" (/usr/local/bin/python3
// -> pythonX.Y). Returns the --base reference of it, "oci:DIR".
inline std::string make_python_base(const Scratch& scratch, const std::string& dir, const std::string& kind)
{
    scratch.sh("python3 '" DLENV_SOURCE_DIR "/tests/fixtures/python_base/make_python_base.py' " + kind + " " + dir);
    return "oci:" + (scratch / dir).string();
}

} // namespace dlenv::testing
