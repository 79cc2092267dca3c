#include "core/error.h"
#include "core/file.h"
#include "support/device_numbers.h"
#include "support/scratch.h"
#include "verify/cdi.h"
#include "verify/driver_libraries.h"
#include "verify/gpu_injection.h"
#include "verify/runtime_config.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

const char* k_ldconfig
    = "1290 libs found in cache `/etc/ld.so.cache'\n"
      "\tlibnvidia-ptxjitcompiler.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libnvidia-ptxjitcompiler.so.1\n"
      "\tlibnvidia-ml.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1\n"
      "\tlibnvidia-ml.so (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libnvidia-ml.so\n"
      "\tlibnvidia-glcore.so.535.104.05 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libnvidia-glcore.so.535.104.05\n"
      "\tlibcudart.so.12 (libc6,x86-64) => /usr/local/cuda/lib64/libcudart.so.12\n"
      "\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1\n"
      "\tlibcuda.so.1 (libc6) => /usr/lib/i386-linux-gnu/libcuda.so.1\n"
      "\tlibcudadebugger.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcudadebugger.so.1\n"
      "\tlibnvidia-nvvm.so.4 (libc6,x86-64, OS ABI: Linux 3.2.0) => /usr/lib/x86_64-linux-gnu/libnvidia-nvvm.so.4\n"
      "\tlibc.so.6 (libc6,x86-64, OS ABI: Linux 3.2.0) => /lib/x86_64-linux-gnu/libc.so.6\n";

} // namespace

TEST_CASE("ldconfig output gives the driver's 64-bit compute libraries, each once", "[verify]")
{
    std::vector<verify::LdconfigEntry> entries = verify::parse_ldconfig(k_ldconfig);
    REQUIRE(entries.size() == 10);
    CHECK(entries[8].flags == "libc6,x86-64, OS ABI: Linux 3.2.0");
    std::vector<std::string> sources;
    for (const auto& bind : verify::driver_library_binds(entries)) {
        CHECK(bind.read_only);
        CHECK(bind.destination == "/usr/local/nvidia/lib64/" + std::filesystem::path(bind.source).filename().string());
        sources.push_back(bind.source);
    }
    CHECK(sources
        == std::vector<std::string> { "/usr/lib/x86_64-linux-gnu/libnvidia-ptxjitcompiler.so.1",
            "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
            "/usr/lib/x86_64-linux-gnu/libcudadebugger.so.1", "/usr/lib/x86_64-linux-gnu/libnvidia-nvvm.so.4" });
}

TEST_CASE("without a CDI spec the plan binds the device nodes, the driver libraries and nvidia-smi", "[verify]")
{
    Scratch scratch;
    scratch.sh("mkdir -p dev cdi && touch dev/nvidiactl dev/nvidia-uvm dev/nvidia10 dev/nvidia2 dev/nvidia0 "
               "dev/nvidia-modeset dev/null && echo '{\"kind\": \"amd.com/gpu\", \"devices\": []}' > cdi/amd.json");
    verify::GpuHost host { { scratch / "cdi" }, scratch / "dev", [] { return std::string(k_ldconfig); },
        "/usr/bin/nvidia-smi", test::nvidia_device_numbers };
    verify::GpuInjection plan = verify::plan_gpu_injection(host);
    CHECK(plan.source == "ldconfig -p and " + (scratch / "dev").string());
    std::vector<std::string> devices;
    for (const auto& device : plan.devices)
        devices.push_back(device.path + " " + std::to_string(device.major) + ":" + std::to_string(device.minor));
    CHECK(devices
        == std::vector<std::string> { "/dev/nvidiactl 195:255", "/dev/nvidia-uvm 510:0", "/dev/nvidia0 195:0",
            "/dev/nvidia2 195:2", "/dev/nvidia10 195:10" });
    CHECK(plan.devices[0].host_path == (scratch / "dev" / "nvidiactl").string());
    REQUIRE(plan.binds.size() == 6);
    CHECK(plan.binds.back().source == "/usr/bin/nvidia-smi");
    CHECK(plan.binds.back().destination == "/usr/bin/nvidia-smi");
    CHECK(plan.hooks.empty());
}

TEST_CASE("a host without NVIDIA device nodes or CDI spec gets a plan refusal that says what to install", "[verify]")
{
    Scratch scratch;
    scratch.sh("mkdir -p dev && touch dev/null");
    verify::GpuHost host { { scratch / "cdi" }, scratch / "dev", [] { return std::string(); }, std::nullopt,
        test::nvidia_device_numbers };
    try {
        verify::plan_gpu_injection(host);
        FAIL("planned GPU injection without a GPU");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::environment);
        CHECK(e.message() == "no NVIDIA device nodes in " + (scratch / "dev").string() + " and no CDI spec");
    }
}

TEST_CASE("a CDI spec for nvidia.com/gpu gives its nodes, mounts, hooks and env for all devices", "[verify]")
{
    Scratch scratch;
    write_file_atomic(scratch / "etc-cdi" / "nvidia.json", R"({
      "cdiVersion": "0.5.0", "kind": "nvidia.com/gpu",
      "devices": [
        {"name": "0", "containerEdits": {"deviceNodes": [{"path": "/dev/nvidia0"}]}},
        {"name": "all", "containerEdits": {"deviceNodes": [{"path": "/dev/nvidia0"}, {"path": "/dev/nvidia1"}]}}
      ],
      "containerEdits": {
        "env": ["NVIDIA_VISIBLE_DEVICES=void"],
        "deviceNodes": [{"path": "/dev/nvidiactl", "hostPath": "/dev/nvidiactl", "type": "c", "major": 195, "minor": 255}],
        "mounts": [{"hostPath": "/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05",
                    "containerPath": "/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05",
                    "options": ["ro", "nosuid", "nodev", "bind"]},
                   {"hostPath": "/run/nvidia-persistenced/socket", "containerPath": "/run/nvidia-persistenced/socket",
                    "options": ["nosuid", "nodev", "bind", "noexec"]}],
        "hooks": [{"hookName": "createContainer", "path": "/usr/bin/nvidia-ctk",
                   "args": ["nvidia-ctk", "hook", "update-ldcache", "--folder", "/usr/lib/x86_64-linux-gnu"]}]
      }
    })");
    scratch.sh("mkdir -p run-cdi && echo '{\"kind\": \"nvidia.com/gpu\", \"devices\": []}' > run-cdi/later.json");
    auto probe = [](const std::string& path) -> std::optional<verify::DeviceNode> {
        return verify::DeviceNode { path, path, 'c', 195, path == "/dev/nvidia1" ? 1u : 0u, 0666 };
    };
    verify::GpuHost host { { scratch / "etc-cdi", scratch / "run-cdi" }, scratch / "dev", {}, std::nullopt, probe };
    verify::GpuInjection plan = verify::plan_gpu_injection(host);
    CHECK(plan.source == "CDI spec " + (scratch / "etc-cdi" / "nvidia.json").string());
    CHECK(plan.env == std::vector<std::string> { "NVIDIA_VISIBLE_DEVICES=void" });
    std::vector<std::string> devices;
    for (const auto& device : plan.devices)
        devices.push_back(device.path + " " + std::to_string(device.major) + ":" + std::to_string(device.minor));
    CHECK(devices == std::vector<std::string> { "/dev/nvidiactl 195:255", "/dev/nvidia0 195:0", "/dev/nvidia1 195:1" });
    REQUIRE(plan.binds.size() == 2);
    CHECK(plan.binds[0].read_only);
    CHECK_FALSE(plan.binds[1].read_only);
    REQUIRE(plan.hooks.size() == 1);
    CHECK(plan.hooks[0].stage == "createContainer");
    CHECK(plan.hooks[0].args.back() == "/usr/lib/x86_64-linux-gnu");
}

TEST_CASE("a CDI spec that breaks the schema is refused naming the file", "[verify]")
{
    try {
        verify::plan_from_cdi_spec(nlohmann::json::parse(R"({"kind": "nvidia.com/gpu", "devices": [{"name": "0"}]})"),
            "/etc/cdi/bad.json", verify::probe_device);
        FAIL("accepted a device without containerEdits");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(e.message().starts_with("/etc/cdi/bad.json: not a CDI spec: "));
    }
}

TEST_CASE("a CDI device node of no known type is refused naming the file and the node", "[verify]")
{
    auto type = GENERATE(as<std::string> {}, "", "char", "x");
    CAPTURE(type);
    nlohmann::json spec = { { "kind", "nvidia.com/gpu" },
        { "devices",
            { { { "name", "all" },
                { "containerEdits",
                    { { "deviceNodes",
                        { { { "path", "/dev/nvidia0" }, { "type", type }, { "major", 195 } } } } } } } } } };
    try {
        verify::plan_from_cdi_spec(spec, "/etc/cdi/bad.json", verify::probe_device);
        FAIL("accepted a device node of type '" + type + "'");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(std::string(e.what())
            == "/etc/cdi/bad.json: device node /dev/nvidia0: type \"" + type + "\" is not c, b, u or p");
    }
}

TEST_CASE("injected GPUs reach runc's config and bwrap's arguments: nodes allowed, binds read-only, hooks", "[verify]")
{
    Scratch scratch;
    scratch.sh("mkdir -p dev && touch dev/nvidiactl dev/nvidia-uvm dev/nvidia0");
    verify::GpuHost host { { scratch / "cdi" }, scratch / "dev", [] { return std::string(k_ldconfig); },
        "/usr/bin/nvidia-smi", test::nvidia_device_numbers };
    verify::GpuInjection plan = verify::plan_gpu_injection(host);
    plan.hooks = { { "createContainer", "/usr/bin/nvidia-cdi-hook", { "nvidia-cdi-hook", "update-ldcache" }, {} } };
    plan.env = { "NVIDIA_VISIBLE_DEVICES=void" };
    verify::ContainerSpec spec;
    spec.args = { "/usr/bin/python3", "/opt/dlenv/kit/gpu_tier.py" };
    spec.env = { "PATH=/usr/bin", "NVIDIA_VISIBLE_DEVICES=all" };
    verify::inject_gpus(spec, plan);
    CHECK(spec.env == std::vector<std::string> { "PATH=/usr/bin", "NVIDIA_VISIBLE_DEVICES=void" });

    nlohmann::json config = verify::runtime_config(spec, "rootfs");
    std::string dev = (scratch / "dev").string();
    CHECK(config["linux"]["devices"] == nlohmann::json::parse(R"([
        {"path":"/dev/nvidiactl","type":"c","major":195,"minor":255,"fileMode":438,"uid":0,"gid":0},
        {"path":"/dev/nvidia-uvm","type":"c","major":510,"minor":0,"fileMode":438,"uid":0,"gid":0},
        {"path":"/dev/nvidia0","type":"c","major":195,"minor":0,"fileMode":438,"uid":0,"gid":0}])"));
    CHECK(config["linux"]["resources"]["devices"] == nlohmann::json::parse(R"([
        {"allow":true,"type":"c","major":195,"minor":255,"access":"rwm"},
        {"allow":true,"type":"c","major":510,"minor":0,"access":"rwm"},
        {"allow":true,"type":"c","major":195,"minor":0,"access":"rwm"}])"));
    std::vector<std::string> binds;
    for (const auto& mount : config["mounts"])
        if (mount["type"] == "none")
            binds.push_back(mount["source"].get<std::string>() + " -> " + mount["destination"].get<std::string>() + " "
                + mount["options"].back().get<std::string>());
    CHECK(binds
        == std::vector<std::string> { "/usr/lib/x86_64-linux-gnu/libnvidia-ptxjitcompiler.so.1 -> "
                                      "/usr/local/nvidia/lib64/libnvidia-ptxjitcompiler.so.1 ro",
            "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1 -> /usr/local/nvidia/lib64/libnvidia-ml.so.1 ro",
            "/usr/lib/x86_64-linux-gnu/libcuda.so.1 -> /usr/local/nvidia/lib64/libcuda.so.1 ro",
            "/usr/lib/x86_64-linux-gnu/libcudadebugger.so.1 -> /usr/local/nvidia/lib64/libcudadebugger.so.1 ro",
            "/usr/lib/x86_64-linux-gnu/libnvidia-nvvm.so.4 -> /usr/local/nvidia/lib64/libnvidia-nvvm.so.4 ro",
            "/usr/bin/nvidia-smi -> /usr/bin/nvidia-smi ro" });
    CHECK(config["hooks"] == nlohmann::json::parse(R"({"createContainer":[{"path":"/usr/bin/nvidia-cdi-hook",
          "args":["nvidia-cdi-hook","update-ldcache"]}]})"));
    CHECK(config["process"]["env"] == nlohmann::json { "PATH=/usr/bin", "NVIDIA_VISIBLE_DEVICES=void" });

    std::vector<std::string> args = verify::bwrap_arguments(spec, "rootfs");
    auto after = [&](const std::string& flag, const std::string& source) {
        for (std::size_t i = 0; i + 2 < args.size(); ++i)
            if (args[i] == flag && args[i + 1] == source)
                return args[i + 2];
        return std::string("(none)");
    };
    CHECK(after("--dev-bind", dev + "/nvidiactl") == "/dev/nvidiactl");
    CHECK(after("--dev-bind", dev + "/nvidia-uvm") == "/dev/nvidia-uvm");
    CHECK(after("--dev-bind", dev + "/nvidia0") == "/dev/nvidia0");
    CHECK(after("--ro-bind", "/usr/lib/x86_64-linux-gnu/libcuda.so.1") == "/usr/local/nvidia/lib64/libcuda.so.1");
    CHECK(after("--ro-bind", "/usr/bin/nvidia-smi") == "/usr/bin/nvidia-smi");
    CHECK(after("--setenv", "NVIDIA_VISIBLE_DEVICES") == "void");
}
