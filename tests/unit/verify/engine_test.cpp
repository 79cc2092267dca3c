#include "verify/engine.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

verify::ContainerSpec python_spec()
{
    verify::ContainerSpec spec;
    spec.args = { "python3", "/opt/dlenv/kit/gpu_tier.py" };
    spec.env = { "PATH=/usr/local/bin:/usr/bin", "NVIDIA_VISIBLE_DEVICES=all" };
    spec.cwd = "/workspace";
    spec.uid = 1000;
    spec.gid = 100;
    return spec;
}

const std::vector<std::string> k_common
    = { "run", "--rm", "--name", "dlenv-verify-7-0", "--network", "none", "--user", "1000:100", "--workdir",
          "/workspace", "--read-only", "--env", "PATH=/usr/local/bin:/usr/bin", "--env", "NVIDIA_VISIBLE_DEVICES=all" };

std::vector<std::string> expected(const std::string& program, std::vector<std::string> middle)
{
    std::vector<std::string> out = { program };
    out.insert(out.end(), k_common.begin(), k_common.end());
    out.insert(out.end(), middle.begin(), middle.end());
    out.insert(out.end(), { "--entrypoint", "python3", "sha256:0ccb", "/opt/dlenv/kit/gpu_tier.py" });
    return out;
}

} // namespace

TEST_CASE("an engine runs the spec's process, user and environment by image ID, without network", "[verify]")
{
    verify::Runtime podman { "podman", "/usr/bin/podman", "sha256:0ccb" };
    verify::ContainerSpec spec = python_spec();
    spec.binds.push_back({ "/srv/data", "/data", true });
    CHECK(verify::engine_run_arguments(podman, spec, podman.image, "dlenv-verify-7-0")
        == expected("/usr/bin/podman", { "--volume", "/srv/data:/data:ro" }));
}

TEST_CASE("an engine injects the GPUs its own way instead of dlenv's device nodes and driver binds", "[verify]")
{
    verify::ContainerSpec spec = python_spec();
    spec.devices.push_back({ "/dev/nvidia0", {}, 'c', 195, 0, 0666 });
    spec.binds.push_back({ "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", true });
    verify::Runtime docker { "docker", "/usr/bin/docker", "sha256:0ccb" };
    CHECK(verify::engine_run_arguments(docker, spec, docker.image, "dlenv-verify-7-0")
        == expected("/usr/bin/docker", { "--gpus", "all" }));
    verify::Runtime podman { "podman", "/usr/bin/podman", "sha256:0ccb" };
    CHECK(verify::engine_run_arguments(podman, spec, podman.image, "dlenv-verify-7-0")
        == expected("/usr/bin/podman", { "--device", "nvidia.com/gpu=all" }));
}
