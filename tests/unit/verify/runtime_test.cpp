#include "support/shell_rootfs.h"
#include "verify/runtime.h"

#include <catch2/catch.hpp>

using namespace dlenv;

TEST_CASE("a run that keeps stderr apart returns stdout alone as its output", "[verify]")
{
    Scratch scratch;
    make_shell_rootfs(scratch, "rootfs");
    auto program = GENERATE(as<std::string> {}, "bwrap", "runc");
    CAPTURE(program);
    auto path = verify::find_on_path(program);
    if (!path || (program == "runc" && ::geteuid() != 0))
        return; // runc runs rootless only with more setup than a unit test makes
    verify::ContainerSpec spec;
    spec.args = { "/bin/sh", "-c", "echo data; echo complaint >&2; exit 3" };
    spec.user_namespace = ::geteuid() != 0;
    spec.host_uid = ::geteuid();
    spec.host_gid = ::getegid();
    verify::ContainerRun apart
        = verify::run_container({ program, *path }, spec, scratch / "rootfs", scratch / ("apart-" + program), 30, true);
    CHECK(apart.exit_code == 3);
    CHECK(apart.output == "data\n");
    CHECK(apart.errors == "complaint\n");
    verify::ContainerRun merged
        = verify::run_container({ program, *path }, spec, scratch / "rootfs", scratch / ("merged-" + program), 30);
    // Both streams, in whichever order the runtime's copies of them reached the pipe.
    CHECK((merged.output == "data\ncomplaint\n" || merged.output == "complaint\ndata\n"));
    CHECK(merged.errors.empty());
}
