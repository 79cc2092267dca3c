#include "core/file.h"
#include "support/device_numbers.h"
#include "support/shell_rootfs.h"
#include "verify/gpu_tier.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

verify::ContainerContext context_for(const Scratch& scratch, std::vector<std::string> env)
{
    return { { "runc", "/nonexistent/runc" }, scratch / "rootfs", scratch / "runs", { {}, std::move(env), "/", "" },
        60 };
}

verify::GpuHost gpu_host(const Scratch& scratch)
{
    return { { scratch / "cdi" }, scratch / "dev", [] { return std::string(); }, std::nullopt,
        test::nvidia_device_numbers };
}

const HostFacts k_h100_host { "6.1.0", DriverVersion::parse("535.104.05"), { "NVIDIA H100 80GB HBM3" } };

} // namespace

TEST_CASE("without a driver a GPU tier says to run it on a GPU machine", "[verify]")
{
    Scratch scratch;
    verify::GpuTierResult result
        = verify::run_gpu_tier("gpu", context_for(scratch, {}), { "6.1.0", std::nullopt, {} }, {}, gpu_host(scratch));
    CHECK_FALSE(result.report);
    CHECK(result.unavailable
        == "no NVIDIA driver or GPU on this machine; run this tier on a GPU machine (`--tier static` works without "
           "one)");
}

TEST_CASE("an image whose NVIDIA_REQUIRE_CUDA refuses the driver cannot run its GPU tiers here", "[verify]")
{
    Scratch scratch;
    HostFacts geforce { "6.1.0", DriverVersion::parse("470.57.02"), { "NVIDIA GeForce RTX 3090" } };
    verify::GpuTierResult result = verify::run_gpu_tier("gpu",
        context_for(scratch, { "NVIDIA_REQUIRE_CUDA=cuda>=12.1 brand=tesla,driver>=470,driver<471" }), geforce, {},
        gpu_host(scratch));
    CHECK_FALSE(result.report);
    CHECK(result.unavailable.starts_with(
        "the image cannot start on this host: NVIDIA_REQUIRE_CUDA=\"cuda>=12.1 brand=tesla,driver>=470,driver<471\" "
        "refuses driver 470.57.02"));
}

TEST_CASE("a host whose GPUs cannot be injected says why and what to install", "[verify]")
{
    Scratch scratch;
    scratch.sh("mkdir -p dev && touch dev/null");
    verify::GpuTierResult result
        = verify::run_gpu_tier("framework", context_for(scratch, {}), k_h100_host, {}, gpu_host(scratch));
    CHECK_FALSE(result.report);
    CHECK(result.unavailable
        == "GPU injection cannot be planned: no NVIDIA device nodes in " + (scratch / "dev").string()
            + " and no CDI spec (install the NVIDIA driver, or generate a CDI spec: `nvidia-ctk cdi generate "
              "--output=/etc/cdi/nvidia.yaml`)");
}

TEST_CASE("an image built before the kit existed fails its GPU tier after the driver checks pass", "[verify]")
{
    Scratch scratch;
    scratch.sh("mkdir -p dev rootfs && touch dev/nvidiactl dev/nvidia0");
    verify::GpuTierResult result = verify::run_gpu_tier("gpu",
        context_for(scratch, { "NVIDIA_REQUIRE_CUDA=cuda>=12.1 brand=tesla,driver>=470,driver<471" }), k_h100_host, {},
        gpu_host(scratch));
    REQUIRE(result.report);
    CHECK(result.report->tier == "gpu");
    CHECK_FALSE(result.report->passed());
    std::vector<std::string> findings;
    for (const auto& finding : result.report->findings)
        findings.push_back(
            std::string(verify::outcome_name(finding.verdict)) + " " + finding.code + ": " + finding.message);
    CHECK(findings
        == std::vector<std::string> {
            "pass require-cuda: NVIDIA_REQUIRE_CUDA=\"cuda>=12.1 brand=tesla,driver>=470,driver<471\" accepts driver "
            "535.104.05",
            "pass gpu-injection: GPUs injected from ldconfig -p and " + (scratch / "dev").string()
                + ": 2 device nodes, 0 binds, 0 hooks",
            "fail kit-run: /opt/dlenv/kit/gpu_tier.py is not in the image: it was built by a dlenv without the "
            "validation kit; rebuild it with `dlenv build` to add the kit" });
    CHECK(result.report->figures.empty());
}

TEST_CASE("the kit runs in the container with the planned GPUs, and its output becomes the tier", "[verify]")
{
    auto bwrap = verify::find_on_path("bwrap");
    if (!bwrap)
        return;
    Scratch scratch;
    make_shell_rootfs(scratch, "rootfs");
    // A stand-in python3 runs the stand-in kit as a shell script; the kit prints the
    // fixture only when the injected device node and driver library are there.
    scratch.sh("mkdir -p dev host-lib rootfs/usr/bin rootfs/opt/dlenv/kit && touch dev/nvidiactl dev/nvidia0 "
               "host-lib/libcuda.so.1 && printf '#!/bin/sh\\nexec /bin/sh \"$@\"\\n' > rootfs/usr/bin/python3 && "
               "chmod +x rootfs/usr/bin/python3 && cp '"
        + std::string(DLENV_SOURCE_DIR)
        + "/tests/fixtures/kit/gpu_h100_pass.json' rootfs/opt/dlenv/kit/output.json && "
          "echo 'test -e /dev/nvidia0 && test -e /usr/local/nvidia/lib64/libcuda.so.1 && echo warming up >&2 && "
          "while IFS= read -r l; do echo \"$l\"; done < /opt/dlenv/kit/output.json' > "
          "rootfs/opt/dlenv/kit/gpu_tier.py");
    std::string ldconfig
        = "1 libs found\n\tlibcuda.so.1 (libc6,x86-64) => " + (scratch / "host-lib").string() + "/libcuda.so.1\n";
    verify::GpuHost host { {}, scratch / "dev", [&] { return ldconfig; }, std::nullopt, test::nvidia_device_numbers };
    verify::ContainerContext context { { "bwrap", *bwrap }, scratch / "rootfs", scratch / "runs",
        { {}, { "PATH=/usr/bin:/bin" }, "/", "" }, 60 };
    verify::GpuTierResult result = verify::run_gpu_tier("gpu", context, k_h100_host, {}, host);
    REQUIRE(result.report);
    CAPTURE(result.report->findings.back().message);
    CHECK(result.report->passed());
    CHECK(result.report->findings.front().message
        == "GPUs injected from ldconfig -p and " + (scratch / "dev").string() + ": 2 device nodes, 1 binds, 0 hooks");
    CHECK(result.report->count(Verdict::ok) == 1 + 8 + 3);
    CHECK(result.report->figures.front().name == "kit_seconds");
    CHECK(result.report->figures.back().name == "gpu0_gemm_bf16_fraction");
}
