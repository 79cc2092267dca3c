#include "rootfs/lookup.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

using namespace dlenv;

TEST_CASE("links never lead out of the root filesystem", "[rootfs]")
{
    Scratch scratch;
    scratch.sh("mkdir -p rootfs/lib outside && echo secret > outside/secret\n"
               "ln -s ../../../../../outside/secret rootfs/lib/up\n"
               "ln -s /../outside/secret rootfs/lib/absolute\n"
               "ln -s loop rootfs/lib/loop\n"
               "mkdir -p rootfs/outside && echo inside > rootfs/outside/secret\n");
    CHECK(rootfs::lookup(scratch / "rootfs", "/lib/up") == scratch / "rootfs" / "outside" / "secret");
    CHECK(rootfs::lookup(scratch / "rootfs", "/lib/absolute") == scratch / "rootfs" / "outside" / "secret");
    CHECK_FALSE(rootfs::lookup(scratch / "rootfs", "/lib/loop"));
    CHECK_FALSE(rootfs::lookup(scratch / "rootfs", "/lib/missing"));
}
