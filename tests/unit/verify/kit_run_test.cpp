#include "core/error.h"
#include "core/file.h"
#include "support/scratch.h"
#include "verify/kit_run.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

std::string fixture(const std::string& name)
{
    return read_file(std::filesystem::path(DLENV_SOURCE_DIR) / "tests" / "fixtures" / "kit" / name);
}

std::string parse_error(const std::string& text)
{
    try {
        verify::parse_kit_output("/opt/dlenv/kit/gpu_tier.py", "gpu", text);
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        return e.message();
    }
    FAIL("parsed output that breaks the kit contract");
    return {};
}

const std::string k_crash_tail
    = "File \"/opt/dlenv/kit/gpu_tier.py\", line 398, in main | devices = cuda.devices() | "
      "File \"/opt/dlenv/kit/cuda.py\", line 77, in devices | raise OSError(\"libcuda.so.1: "
      "cannot open shared object file: No such file or directory\") | OSError: libcuda.so.1: "
      "cannot open shared object file: No such file or directory";

} // namespace

TEST_CASE("a passing H100 kit run parses into its devices, findings and figures", "[verify]")
{
    verify::KitOutput out
        = verify::parse_kit_output("/opt/dlenv/kit/gpu_tier.py", "gpu", fixture("gpu_h100_pass.json"));
    CHECK(out.tier == "gpu");
    REQUIRE(out.devices.size() == 1);
    CHECK(out.devices[0].name == "NVIDIA H100 80GB HBM3");
    CHECK(out.devices[0].compute_capability == "9.0");
    CHECK(out.devices[0].multiprocessors == 132);
    CHECK(out.devices[0].memory_bytes == 85017755648);
    REQUIRE(out.findings.size() == 8);
    CHECK(out.findings[2].code == "nvrtc-compile");
    CHECK(out.findings[2].verdict == Verdict::ok);
    CHECK(out.findings[2].message == "saxpy, reduce, bandwidth and fma kernels compiled by NVRTC 12.1 for sm_90");
    REQUIRE(out.figures.size() == 5);
    CHECK(out.figures[0].name == "memory_bandwidth");
    CHECK(out.figures[0].device == 0u);
    CHECK(out.figures[0].value == 2900.5);
    CHECK(out.figures[0].unit == "GB/s");
}

TEST_CASE("kit output that breaks the contract is refused naming the kit and the field", "[verify]")
{
    CHECK(parse_error(R"({"kit": 2, "tier": "gpu", "devices": [], "findings": [], "figures": []})")
        == "/opt/dlenv/kit/gpu_tier.py output: kit: unknown kit output version 2; this dlenv reads 1");
    CHECK(parse_error(R"({"kit": 1, "tier": "framework", "devices": [], "findings": [], "figures": []})")
        == "/opt/dlenv/kit/gpu_tier.py output: tier: expected \"gpu\", got \"framework\"");
    CHECK(parse_error(R"({"kit": 1, "tier": "gpu", "devices": [],
        "findings": [{"code": "saxpy", "outcome": "maybe", "message": "m"}], "figures": []})")
        == "/opt/dlenv/kit/gpu_tier.py output: findings[0].outcome: expected pass, fail or skip, got \"maybe\"");
    CHECK(parse_error(R"({"kit": 1, "tier": "gpu", "devices": [], "findings": [],
        "figures": [{"name": "memory_bandwidth", "device": 3, "value": 1, "unit": "GB/s"}]})")
        == "/opt/dlenv/kit/gpu_tier.py output: figures[0].device: no device 3 in \"devices\"");
    CHECK(parse_error(R"({"kit": 1, "tier": "gpu", "findings": [], "figures": []})")
        == "/opt/dlenv/kit/gpu_tier.py output: devices: missing");
}

TEST_CASE("a crashed, silent or slow kit is one failed kit-run finding with stderr's tail and what to do", "[verify]")
{
    verify::ContainerRun crashed { 1, "", fixture("gpu_crash.stderr"), false, 2.5 };
    verify::KitRun run = verify::read_kit_run(crashed, "gpu", 60);
    CHECK_FALSE(run.output);
    REQUIRE(run.failure);
    CHECK(run.failure->code == "kit-run");
    CHECK(run.failure->verdict == Verdict::fail);
    CHECK(run.failure->message
        == "python3 /opt/dlenv/kit/gpu_tier.py crashed with exit status 1; stderr: " + k_crash_tail
            + "; the kit exits 0 whatever its checks find, so this is a broken kit or image: rebuild the image "
              "with this dlenv, and report the stderr if it repeats");
    CHECK(run.seconds == 2.5);

    verify::ContainerRun garbage { 0, "Segmentation fault\n", "", false, 1 };
    std::string message = verify::read_kit_run(garbage, "gpu", 60).failure->message;
    CHECK(message.starts_with(
        "python3 /opt/dlenv/kit/gpu_tier.py printed no valid kit JSON on stdout: /opt/dlenv/kit/gpu_tier.py "
        "output:1:1: not valid JSON: "));
    CHECK(message.ends_with(" (nothing on stderr); rebuild the image with this dlenv so its kit matches"));

    verify::ContainerRun slow { 124, "", "", true, 60 };
    CHECK(verify::read_kit_run(slow, "framework", 60).failure->message
        == "python3 /opt/dlenv/kit/framework_tier.py did not finish within 60 s (nothing on stderr); give it longer "
           "with --timeout SECONDS");

    verify::ContainerRun good { 0, fixture("gpu_h100_pass.json"), "a warning\n", false, 30 };
    verify::KitRun parsed = verify::read_kit_run(good, "gpu", 60);
    CHECK_FALSE(parsed.failure);
    REQUIRE(parsed.output);
    CHECK(parsed.output->findings.size() == 8);
}

TEST_CASE("a long stderr is cut to its last lines", "[verify]")
{
    std::string errors;
    for (int i = 0; i < 20; ++i)
        errors += "line " + std::to_string(i) + "\n\n";
    CHECK(verify::error_tail(errors) == "line 15 | line 16 | line 17 | line 18 | line 19");
    CHECK(verify::error_tail(std::string(700, 'x')) == "..." + std::string(600, 'x'));
    CHECK(verify::error_tail("") == "");
}

TEST_CASE("an image without the kit or without python3 fails kit-run before any container starts", "[verify]")
{
    Scratch scratch;
    scratch.sh("mkdir -p rootfs/usr/bin");
    verify::ContainerContext context { { "runc", "/nonexistent/runc" }, scratch / "rootfs", scratch / "runs",
        { {}, { "PATH=/usr/bin" }, "/", "" }, 60 };
    verify::KitRun missing = verify::run_kit(context, "gpu", {});
    REQUIRE(missing.failure);
    CHECK_FALSE(missing.seconds);
    CHECK(missing.failure->message
        == "/opt/dlenv/kit/gpu_tier.py is not in the image: it was built by a dlenv without the validation kit; "
           "rebuild it with `dlenv build` to add the kit");

    scratch.sh("mkdir -p rootfs/opt/dlenv/kit && touch rootfs/opt/dlenv/kit/framework_tier.py");
    CHECK(verify::run_kit(context, "framework", {}).failure->message
        == "the image has no python3 on its PATH, and the validation kit runs with python3 (3.6 or newer); install "
           "python3 in the image or put it on the PATH of its config");
}
