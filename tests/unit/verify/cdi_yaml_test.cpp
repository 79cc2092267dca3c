#include "core/error.h"
#include "core/file.h"
#include "support/scratch.h"
#include "verify/cdi.h"
#include "verify/cdi_yaml.h"

#include <catch2/catch.hpp>

#include <regex>

using namespace dlenv;

namespace {

// NVIDIA's expected `nvidia-ctk cdi generate` YAML with `root` where its test puts its own.
std::string nvidia_ctk_spec(const std::filesystem::path& root)
{
    std::string text
        = read_file(std::filesystem::path(DLENV_SOURCE_DIR) / "tests" / "fixtures" / "cdi" / "nvidia.yaml");
    return std::regex_replace(text, std::regex(R"(\{\{ \.driverRoot \}\})"), root.string());
}

std::string error_of(const std::string& yaml)
{
    try {
        verify::cdi_yaml_document(yaml, "/var/run/cdi/nvidia.yaml");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(e.hint() == verify::k_regenerate_cdi_spec);
        return e.message();
    }
    FAIL("accepted " << yaml);
    return "";
}

} // namespace

TEST_CASE("the YAML spec nvidia-ctk writes by default plans what its JSON twin plans", "[verify]")
{
    Scratch scratch;
    std::string yaml = nvidia_ctk_spec("/driver-root");
    write_file_atomic(scratch / "run-cdi" / "nvidia.yaml", yaml);
    std::vector<std::string> probed;
    auto probe = [&](const std::string& path) -> std::optional<verify::DeviceNode> {
        probed.push_back(path);
        return verify::DeviceNode { path, path, 'c', 195, path.ends_with("nvidiactl") ? 255u : 0u, 0666 };
    };
    std::optional<verify::GpuInjection> plan
        = verify::plan_from_cdi_dirs({ scratch / "etc-cdi", scratch / "run-cdi" }, probe);
    REQUIRE(plan);
    CHECK(plan->source == "CDI spec " + (scratch / "run-cdi" / "nvidia.yaml").string());
    CHECK(plan->env
        == std::vector<std::string> { "NVIDIA_CTK_LIBCUDA_DIR=/lib/x86_64-linux-gnu", "NVIDIA_VISIBLE_DEVICES=void" });
    std::vector<std::string> devices;
    for (const auto& device : plan->devices)
        devices.push_back(device.path + " <- " + device.host_path + " " + std::to_string(device.major) + ":"
            + std::to_string(device.minor));
    CHECK(devices
        == std::vector<std::string> {
            "/dev/nvidiactl <- /driver-root/dev/nvidiactl 195:255", "/dev/nvidia0 <- /driver-root/dev/nvidia0 195:0" });
    CHECK(probed == std::vector<std::string> { "/driver-root/dev/nvidiactl", "/driver-root/dev/nvidia0" });
    REQUIRE(plan->binds.size() == 2);
    CHECK(plan->binds[0].source == "/driver-root/lib/x86_64-linux-gnu/libcuda.so.999.88.77");
    CHECK(plan->binds[0].destination == "/lib/x86_64-linux-gnu/libcuda.so.999.88.77");
    CHECK(plan->binds[0].read_only);
    CHECK(plan->binds[1].destination == "/lib/x86_64-linux-gnu/vdpau/libvdpau_nvidia.so.999.88.77");
    std::vector<std::string> hooks;
    for (const auto& hook : plan->hooks)
        hooks.push_back(hook.stage + " " + hook.path + " " + hook.args.at(1) + " " + hook.env.at(0));
    CHECK(hooks
        == std::vector<std::string> { "createContainer /usr/bin/nvidia-cdi-hook create-symlinks NVIDIA_CTK_DEBUG=false",
            "createContainer /usr/bin/nvidia-cdi-hook enable-cuda-compat NVIDIA_CTK_DEBUG=false",
            "createContainer /usr/bin/nvidia-cdi-hook update-ldcache NVIDIA_CTK_DEBUG=false",
            "createContainer /usr/bin/nvidia-cdi-hook disable-device-node-modification NVIDIA_CTK_DEBUG=false" });

    nlohmann::json document = verify::cdi_yaml_document(yaml, "nvidia.yaml");
    CHECK(document.at("cdiVersion") == "0.5.0");
    CHECK(document.at("devices").at(0).at("name") == "0"); // quoted, so a string
    write_file_atomic(scratch / "json-cdi" / "nvidia.json", document.dump());
    std::optional<verify::GpuInjection> twin = verify::plan_from_cdi_dirs({ scratch / "json-cdi" }, probe);
    REQUIRE(twin);
    CHECK(twin->env == plan->env);
    CHECK(twin->devices.size() == plan->devices.size());
    CHECK(twin->binds.size() == plan->binds.size());
    CHECK(twin->hooks.size() == plan->hooks.size());
}

TEST_CASE("plain YAML scalars are read as the CDI library reads them, quoted ones stay strings", "[verify]")
{
    nlohmann::json document = verify::cdi_yaml_document(
        "major: 195\nminor: +0\nneg: -1\nflag: true\noff: False\nnothing: ~\nempty:\nversion: 0.6.0\n"
        "quoted: \"195\"\nsingle: 'true'\nmode: 0o666\nbig: 99999999999999999999\n",
        "spec.yaml");
    CHECK(document
        == nlohmann::json { { "major", 195 }, { "minor", 0 }, { "neg", -1 }, { "flag", true }, { "off", false },
            { "nothing", nullptr }, { "empty", nullptr }, { "version", "0.6.0" }, { "quoted", "195" },
            { "single", "true" }, { "mode", "0o666" }, { "big", "99999999999999999999" } });
}

TEST_CASE("a CDI spec in bad YAML is refused naming the file, line and column", "[verify]")
{
    CHECK(error_of("kind: nvidia.com/gpu\ndevices: [\n")
        == "/var/run/cdi/nvidia.yaml:3:1: not YAML: end of sequence flow not found");
    CHECK(error_of("kind: a\n---\nkind: b\n")
        == "/var/run/cdi/nvidia.yaml: not a CDI spec: 2 YAML documents, expected one");
    CHECK(error_of("kind: a\nkind: b\n") == "/var/run/cdi/nvidia.yaml:2:1: not a CDI spec: the key 'kind' twice");
    CHECK(error_of("? [a]\n: b\n") == "/var/run/cdi/nvidia.yaml:1:3: not a CDI spec: a key that is not a string");
}

TEST_CASE("a YAML spec nested too deep or that its aliases blow up is refused before it fills memory", "[verify]")
{
    std::string deep;
    for (int i = 0; i < 40; ++i)
        deep += "[";
    CHECK(error_of("devices: " + deep + std::string(40, ']'))
        == "/var/run/cdi/nvidia.yaml:1:42: not a CDI spec: nested more than 32 levels deep");
    // A document in flow style is JSON, read by the JSON reader.
    CHECK(verify::cdi_yaml_document(" {\"kind\": \"nvidia.com/gpu\", \"devices\": []}", "spec.yaml")
        == nlohmann::json { { "kind", "nvidia.com/gpu" }, { "devices", nlohmann::json::array() } });

    // Each level holds the one before it ten times: 10^9 nodes from a few hundred bytes.
    std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
    for (char level = 'b'; level <= 'i'; ++level) {
        std::string previous(1, static_cast<char>(level - 1));
        bomb += std::string(1, level) + ": &" + level + " [";
        for (int i = 0; i < 10; ++i)
            bomb += (i ? ", *" : "*") + previous;
        bomb += "]\n";
    }
    CHECK(error_of(bomb).ends_with("not a CDI spec: more than 100000 nodes with its aliases expanded"));
}
