#include "core/error.h"
#include "verify/runtime.h"
#include "verify/runtime_config.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace dlenv;

namespace {

verify::ContainerSpec quickstart_spec()
{
    verify::ContainerSpec spec;
    spec.args = { "/bin/sh", "-c", "echo hi" };
    spec.env = { "PATH=/usr/bin:/bin", "NVIDIA_VISIBLE_DEVICES=all" };
    spec.cwd = "/app";
    return spec;
}

} // namespace

TEST_CASE("the runtime config runs the image's process with no cgroup limits and no capabilities", "[verify]")
{
    nlohmann::json config = verify::runtime_config(quickstart_spec(), "/tmp/rootfs");
    CHECK(config["ociVersion"] == "1.0.2");
    CHECK(config["root"] == nlohmann::json { { "path", "/tmp/rootfs" }, { "readonly", true } });
    CHECK(config["process"]["args"] == nlohmann::json { "/bin/sh", "-c", "echo hi" });
    CHECK(config["process"]["env"] == nlohmann::json { "PATH=/usr/bin:/bin", "NVIDIA_VISIBLE_DEVICES=all" });
    CHECK(config["process"]["cwd"] == "/app");
    CHECK(config["process"]["user"] == nlohmann::json { { "uid", 0 }, { "gid", 0 } });
    CHECK(config["process"]["noNewPrivileges"] == true);
    CHECK_FALSE(config["process"].contains("capabilities"));
    CHECK(config["linux"]["namespaces"]
        == nlohmann::json::parse(
            R"([{"type":"pid"},{"type":"ipc"},{"type":"uts"},{"type":"mount"},{"type":"network"}])"));
    CHECK_FALSE(config["linux"].contains("resources"));
    CHECK_FALSE(config["linux"].contains("cgroupsPath"));
    CHECK_FALSE(config.contains("hooks"));
    std::vector<std::string> destinations;
    for (const auto& mount : config["mounts"])
        destinations.push_back(mount["destination"]);
    CHECK(destinations
        == std::vector<std::string> { "/proc", "/dev", "/dev/pts", "/dev/shm", "/dev/mqueue", "/sys", "/tmp" });
    CHECK(config["mounts"][5]["type"] == "sysfs");
}

TEST_CASE("passed-through devices are created and allowed, binds and hooks are kept in order", "[verify]")
{
    verify::ContainerSpec spec = quickstart_spec();
    spec.devices = { { "/dev/nvidia0", "", 'c', 195, 0, 0666 } };
    spec.binds
        = { { "/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", true } };
    spec.hooks = { { "createContainer", "/usr/bin/nvidia-cdi-hook", { "nvidia-cdi-hook", "update-ldcache" }, {} } };
    nlohmann::json config = verify::runtime_config(spec, "rootfs");
    CHECK(config["linux"]["devices"] == nlohmann::json::parse(R"([{"path":"/dev/nvidia0","type":"c","major":195,
          "minor":0,"fileMode":438,"uid":0,"gid":0}])"));
    CHECK(config["linux"]["resources"]["devices"]
        == nlohmann::json::parse(R"([{"allow":true,"type":"c","major":195,"minor":0,"access":"rwm"}])"));
    CHECK(config["mounts"].back() == nlohmann::json::parse(R"({"destination":"/usr/lib/x86_64-linux-gnu/libcuda.so.1",
          "type":"none","source":"/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05","options":["rbind","nosuid","ro"]})"));
    CHECK(config["hooks"] == nlohmann::json::parse(R"({"createContainer":[{"path":"/usr/bin/nvidia-cdi-hook",
          "args":["nvidia-cdi-hook","update-ldcache"]}]})"));
}

TEST_CASE("without root the container maps its root to the caller and binds /sys", "[verify]")
{
    verify::ContainerSpec spec = quickstart_spec();
    spec.user_namespace = true;
    spec.host_uid = 1000;
    spec.host_gid = 100;
    nlohmann::json config = verify::runtime_config(spec, "rootfs");
    CHECK(config["linux"]["uidMappings"] == nlohmann::json::parse(R"([{"containerID":0,"hostID":1000,"size":1}])"));
    CHECK(config["linux"]["gidMappings"] == nlohmann::json::parse(R"([{"containerID":0,"hostID":100,"size":1}])"));
    CHECK(config["linux"]["namespaces"].back() == nlohmann::json { { "type", "user" } });
    CHECK(config["mounts"][5]["options"] == nlohmann::json { "rbind", "nosuid", "noexec", "nodev", "ro" });
}

TEST_CASE("bwrap gets the same view of the system through its arguments", "[verify]")
{
    verify::ContainerSpec spec = quickstart_spec();
    spec.devices = { { "/dev/nvidiactl", "", 'c', 195, 255, 0666 } };
    spec.binds = { { "/usr/bin/nvidia-smi", "/usr/bin/nvidia-smi", true } };
    CHECK(verify::bwrap_arguments(spec, "/tmp/rootfs")
        == std::vector<std::string> { "--ro-bind", "/tmp/rootfs", "/", "--proc", "/proc", "--dev", "/dev", "--ro-bind",
            "/sys", "/sys", "--tmpfs", "/tmp", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net",
            "--hostname", "dlenv-verify", "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--clearenv",
            "--dev-bind", "/dev/nvidiactl", "/dev/nvidiactl", "--ro-bind", "/usr/bin/nvidia-smi", "/usr/bin/nvidia-smi",
            "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "NVIDIA_VISIBLE_DEVICES", "all", "--chdir", "/app", "--",
            "/bin/sh", "-c", "echo hi" });
}

TEST_CASE("the runtime is the first of runc, crun, bwrap found, or the one asked for", "[verify]")
{
    auto only = [](std::vector<std::string> present) {
        return [present](const std::string& name) -> std::optional<std::string> {
            if (std::find(present.begin(), present.end(), name) == present.end())
                return std::nullopt;
            return "/usr/bin/" + name;
        };
    };
    CHECK(verify::select_runtime("", only({ "bwrap", "crun", "runc" })).name == "runc");
    CHECK(verify::select_runtime("", only({ "bwrap", "crun" })).name == "crun");
    CHECK(verify::select_runtime("", only({ "bwrap" })).program == "/usr/bin/bwrap");
    CHECK(verify::select_runtime("bwrap", only({ "bwrap", "runc" })).name == "bwrap");
    try {
        verify::select_runtime("", only({}));
        FAIL("selected a runtime where there is none");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::environment);
        CHECK(e.message() == "no container runtime: none of runc, crun, bwrap is on PATH");
        CHECK(e.hint().starts_with("install one (Debian and Ubuntu: `apt-get install runc`"));
    }
    try {
        verify::select_runtime("crun", only({ "runc" }));
        FAIL("selected a runtime that is missing");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::environment);
        CHECK(e.message() == "crun is not on PATH");
    }
    CHECK(verify::select_runtime("", only({ "docker", "podman", "bwrap" })).name == "bwrap");
    CHECK(verify::select_runtime("podman", only({ "podman", "runc" })).is_engine());
    try {
        verify::select_runtime("docker", only({ "runc" }));
        FAIL("selected a missing engine");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::environment);
        CHECK(e.message() == "docker is not on PATH");
        CHECK(e.hint().starts_with("install it (Debian and Ubuntu: `apt-get install docker.io`)"));
    }
    try {
        verify::select_runtime("containerd", only({ "runc" }));
        FAIL("selected an unknown runtime");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(e.message() == "unknown runtime \"containerd\"");
    }
}
