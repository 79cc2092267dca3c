// `dlenv check` of frameworks installed together, and of the NCCL and cuDNN wheels they
// would share, against the embedded matrix.

#include "support/check_ask.h"

using namespace dlenv;
using namespace dlenv::resolve;
using namespace dlenv::resolve::check_support;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

// --- Frameworks installed together -------------------------------------------

TEST_CASE(
    "torch 2.6 pins nvidia-cudnn-cu12 9.1.0.70, which jax 0.6's cuDNN floor of 9.8 rules out", "[resolve][coexist]")
{
    Report r = check({ .frameworks = { "torch==2.6.0", "jax==0.6.0" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r).count("frameworks-cudnn") == 1);
    CHECK(finding(r, "frameworks-cudnn")->message
        == "torch 2.6.0 cu124 carries cuDNN 9.1.0.70 and jax 0.6.0 cuda12 needs cuDNN 9.8-9.99: one environment "
           "holds one nvidia-cudnn-cu12, so they cannot be installed together");
    const Finding* nccl = finding(r, "frameworks-nccl");
    REQUIRE(nccl);
    CHECK(nccl->verdict == Verdict::ok);
    CHECK(nccl->message
        == "torch 2.6.0 cu124 carries NCCL 2.21.5 and jax 0.6.0 cuda12 needs NCCL >=2.18.1: one nvidia-nccl-cu12 "
           "serves both");
    // each framework's own findings, named after it once
    CHECK(finding(r, "framework-build")->message
        == "torch==2.6.0 runs as torch 2.6.0 cu124: CUDA 12.4, cuDNN 9.1.0.70, NCCL 2.21.5 (the PyPI default build)");
}

TEST_CASE("a torch build whose NCCL pin the matrix does not hold says so instead of leaving it out", "[resolve]")
{
    Report r = check({ .frameworks = { "torch==2.8.0" }, .cuda = "12.9" });
    CHECK(finding(r, "framework-build")->message
        == "torch==2.8.0 runs as torch 2.8.0 cu129: CUDA 12.9, cuDNN 9.10.2.21, NCCL not on record");
}

TEST_CASE("torch 2.4-2.9 builds name the NCCL their wheels pin", "[resolve]")
{
    const std::vector<std::pair<Ask, std::string>> cases {
        { { .frameworks = { "torch==2.4.0" }, .cuda = "11.8" },
            "torch==2.4.0 runs as torch 2.4.0 cu118: CUDA 11.8, cuDNN 9.1.0.70, NCCL 2.20.5" },
        { { .frameworks = { "torch==2.4.1" }, .cuda = "12.4" },
            "torch==2.4.1 runs as torch 2.4.1 cu124: CUDA 12.4, cuDNN 9.1.0.70, NCCL 2.20.5" },
        { { .frameworks = { "torch==2.5.1" } },
            "torch==2.5.1 runs as torch 2.5.1 cu124: CUDA 12.4, cuDNN 9.1.0.70, NCCL 2.21.5 (the PyPI default build)" },
        { { .frameworks = { "torch==2.5.1" }, .cuda = "12.1" },
            "torch==2.5.1 runs as torch 2.5.1 cu121: CUDA 12.1, cuDNN 9.1.0.70, NCCL 2.21.5" },
        { { .frameworks = { "torch==2.6.0" }, .cuda = "12.6" },
            "torch==2.6.0 runs as torch 2.6.0 cu126: CUDA 12.6, cuDNN 9.5.1.17, NCCL 2.21.5" },
        { { .frameworks = { "torch==2.6.0" }, .cuda = "12.4" },
            "torch==2.6.0 runs as torch 2.6.0 cu124: CUDA 12.4, cuDNN 9.1.0.70, NCCL 2.21.5" },
        { { .frameworks = { "torch==2.6.0" }, .cuda = "11.8" },
            "torch==2.6.0 runs as torch 2.6.0 cu118: CUDA 11.8, cuDNN 9.1.0.70, NCCL 2.21.5" },
        { { .frameworks = { "torch==2.7.1" }, .cuda = "12.8" },
            "torch==2.7.1 runs as torch 2.7.1 cu128: CUDA 12.8, cuDNN 9.7.1.26, NCCL 2.26.2" },
        { { .frameworks = { "torch==2.8.0" } },
            "torch==2.8.0 runs as torch 2.8.0 cu128: CUDA 12.8, cuDNN 9.10.2.21, NCCL 2.27.3 (the PyPI default "
            "build)" },
        { { .frameworks = { "torch==2.8.0" }, .cuda = "12.6" },
            "torch==2.8.0 runs as torch 2.8.0 cu126: CUDA 12.6, cuDNN 9.10.2.21, NCCL 2.27.3" },
        { { .frameworks = { "torch==2.9.1" }, .cuda = "12.6" },
            "torch==2.9.1 runs as torch 2.9.1 cu126: CUDA 12.6, cuDNN 9.10.2.21, NCCL 2.27.5" },
        { { .frameworks = { "torch==2.9.1" }, .cuda = "13.0" },
            "torch==2.9.1 runs as torch 2.9.1 cu130: CUDA 13.0, cuDNN 9.13.0.50, NCCL 2.27.7" },
    };
    for (const auto& [ask, message] : cases) {
        Report r = check(ask);
        SHOW(r);
        const Finding* build = finding(r, "framework-build");
        REQUIRE(build);
        CHECK(build->verdict == Verdict::ok);
        CHECK(build->message == message);
    }
}

TEST_CASE("torch 2.7's cu128 build and jax 0.5 share one nvidia-nccl-cu12, torch 2.8's cu129 NCCL is unknown",
    "[resolve][coexist]")
{
    Report known = check({ .frameworks = { "torch==2.7.1+cu128", "jax==0.5.3" } });
    SHOW(known);
    const Finding* nccl = finding(known, "frameworks-nccl");
    REQUIRE(nccl);
    CHECK(nccl->verdict == Verdict::ok);
    CHECK(nccl->message
        == "torch 2.7.1 cu128 carries NCCL 2.26.2 and jax 0.5.3 cuda12 needs NCCL >=2.18.1: one nvidia-nccl-cu12 "
           "serves both");
    Report unknown = check({ .frameworks = { "torch==2.8.0+cu129", "jax==0.5.3" } });
    SHOW(unknown);
    REQUIRE(finding(unknown, "frameworks-nccl"));
    CHECK(finding(unknown, "frameworks-nccl")->verdict == Verdict::unknown);
}

TEST_CASE("jax 0.5 accepts torch 2.6's cuDNN 9.1.0.70 and NCCL 2.21.5", "[resolve][coexist]")
{
    Report r = check({ .frameworks = { "torch==2.6.0", "jax==0.5.3" }, .driver = "575.64.05" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::ok);
    CHECK(finding(r, "frameworks-cudnn")->verdict == Verdict::ok);
    CHECK(finding(r, "frameworks-nccl")->verdict == Verdict::ok);
}

TEST_CASE("tensorflow[and-cuda] 2.15 loads cuDNN 8 and torch 2.6 cuDNN 9: one nvidia-cudnn-cu12 cannot be both",
    "[resolve][coexist]")
{
    Report r = check({ .frameworks = { "tensorflow[and-cuda]==2.15", "torch==2.6.0" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(finding(r, "frameworks-cudnn")->message
        == "tensorflow 2.15 loads cuDNN 8 (tested with 8.9) and torch 2.6.0 cu124 carries cuDNN 9.1.0.70: one "
           "environment holds one nvidia-cudnn-cu12, so they cannot be installed together");
    const Finding* nccl = finding(r, "frameworks-nccl");
    REQUIRE(nccl);
    CHECK(nccl->verdict == Verdict::unknown);
}

TEST_CASE("tensorflow without and-cuda gets no NVIDIA wheel from pip, so only its cuDNN major is held to the other's",
    "[resolve][coexist]")
{
    Report r = check({ .frameworks = { "tensorflow==2.15", "torch==2.6.0" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::warn);
    CHECK(finding(r, "frameworks-cudnn")->verdict == Verdict::warn);
    CHECK(finding(r, "frameworks-cudnn")->message
        == "tensorflow 2.15 is installed without [and-cuda], so pip brings it no nvidia-cudnn-cu12: it loads cuDNN 8 "
           "(tested with 8.9) from the system, and torch 2.6.0 cu124 carries cuDNN 9.1.0.70: the image must carry "
           "cuDNN 8 itself, for pip brings only torch 2.6.0 cu124's");
    CHECK(finding(r, "frameworks-nccl")->verdict == Verdict::ok);
    CHECK(finding(r, "frameworks-nccl")->message
        == "tensorflow 2.15 is installed without [and-cuda], so pip brings it no nvidia-nccl-cu12 to clash with torch "
           "2.6.0 cu124's");

    // 2.16's NCCL pin is its extra's: without the extra it does not clash, and the finding says what it would
    Report pinned = check({ .frameworks = { "torch==2.6.0", "tensorflow==2.16.1" } });
    SHOW(pinned);
    CHECK(finding(pinned, "frameworks-nccl")->verdict == Verdict::ok);
    CHECK(finding(pinned, "frameworks-nccl")->message
        == "tensorflow 2.16.1 is installed without [and-cuda], so pip brings it no nvidia-nccl-cu12 to clash with "
           "torch 2.6.0 cu124's (with [and-cuda] it would need NCCL 2.19.3)");

    // before 2.14 there is no extra; one cuDNN major on both sides is no concern
    Report older = check({ .frameworks = { "tensorflow==2.13", "torch==2.1.2+cu118" } });
    SHOW(older);
    CHECK(finding(older, "frameworks-cudnn")->verdict == Verdict::ok);
    CHECK(finding(older, "frameworks-cudnn")->message
        == "tensorflow 2.13 has no pip extra that brings CUDA, so pip brings it no nvidia-cudnn-cu11: it loads cuDNN "
           "8 (tested with 8.6) from the system, and torch 2.1.2 cu118 carries cuDNN 8.7.0.84, of the same major");
}

TEST_CASE("tensorflow[and-cuda] 2.16's NCCL pin of 2.19.3 and torch 2.6's 2.21.5 cannot share one nvidia-nccl-cu12",
    "[resolve][coexist]")
{
    Report r = check({ .frameworks = { "tensorflow[and-cuda]==2.16.1", "torch==2.6.0" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    const Finding* nccl = finding(r, "frameworks-nccl");
    REQUIRE(nccl);
    CHECK(nccl->verdict == Verdict::fail);
    CHECK(nccl->message
        == "tensorflow 2.16.1 needs NCCL 2.19.3 and torch 2.6.0 cu124 carries NCCL 2.21.5: one environment holds one "
           "nvidia-nccl-cu12, so they cannot be installed together");
    // the NCCL need rests on its own sources, not on the tested configurations
    CHECK(nccl->why.find("https://github.com/devanshkv/fetch/pull/35") != std::string::npos);
    CHECK(nccl->why.find("install/source") == std::string::npos);
}

TEST_CASE("tensorflow 2.20's NCCL range of 2.25.1-2.99 admits torch 2.8's 2.27.3", "[resolve][coexist]")
{
    Report r = check({ .frameworks = { "torch==2.8.0+cu126", "tensorflow[and-cuda]==2.20.0" } });
    SHOW(r);
    const Finding* nccl = finding(r, "frameworks-nccl");
    REQUIRE(nccl);
    CHECK(nccl->verdict == Verdict::ok);
    CHECK(nccl->message
        == "torch 2.8.0 cu126 carries NCCL 2.27.3 and tensorflow 2.20.0 needs NCCL 2.25.1-2.99: one nvidia-nccl-cu12 "
           "serves both");
    CHECK(finding(r, "frameworks-cudnn")->verdict == Verdict::ok);
}

TEST_CASE("a verdict on tensorflow 2.19's NCCL pin says the pin is unconfirmed", "[resolve][coexist]")
{
    Report r = check({ .frameworks = { "tensorflow[and-cuda]==2.19.0", "torch==2.7.1+cu126" } });
    SHOW(r);
    const Finding* nccl = finding(r, "frameworks-nccl");
    REQUIRE(nccl);
    CHECK(nccl->verdict == Verdict::fail);
    CHECK(nccl->message
        == "tensorflow 2.19.0 needs NCCL 2.25.1 (unconfirmed) and torch 2.7.1 cu126 carries NCCL 2.26.2: one "
           "environment holds one nvidia-nccl-cu12, so they cannot be installed together");
}

TEST_CASE("torch on CUDA 12 and jax on CUDA 13 install side by side, with a warning", "[resolve][coexist]")
{
    Report r = check({ .frameworks = { "torch==2.7.1", "jax==0.8.0" } });
    SHOW(r);
    CHECK(finding(r, "frameworks-cuda-majors")->verdict == Verdict::warn);
    CHECK(finding(r, "frameworks-cuda-majors")->message
        == "torch 2.7.1 cu126 runs on CUDA 12 and jax 0.8.0 cuda13 on CUDA 13: each loads its own CUDA libraries "
           "into "
           "one process, and the driver must run both");
    CHECK_FALSE(has_code(r, "frameworks-cudnn"));

    Report same = check({ .frameworks = { "torch==2.7.1", "jax==0.8.0" }, .cuda = "12.6" });
    SHOW(same);
    CHECK(finding(same, "frameworks-cudnn")->verdict == Verdict::fail);
}

TEST_CASE(
    "forward compatibility on a GeForce GPU fails whatever the driver: cuda-compat refuses the device", "[resolve]")
{
    // The driver alone, and a driver the CUDA line runs on without compatibility packages:
    // loading cuda-compat is what fails (QuipNetwork/quip-miner#24, DeepVAC/TorchPod#43).
    for (const Ask& ask : { Ask { .driver = "570.211.01", .gpus = { "RTX 3060" }, .forward_compat = true },
             Ask { .cuda = "11.3", .driver = "460.80", .gpus = { "GTX 1650" }, .forward_compat = true },
             Ask { .gpus = { "RTX 4090" }, .forward_compat = true } }) {
        Report r = check(ask);
        SHOW(r);
        CHECK(r.verdict() == Verdict::fail);
        const Finding* refused = finding(r, "forward-compat-unsupported-gpu");
        REQUIRE(refused);
        CHECK_THAT(refused->message,
            Contains("works only on data-center GPUs and Jetson; on NVIDIA GeForce")
                && Contains("cudaErrorCompatNotSupportedOnDevice (804)"));
    }
    Report named = check({ .cuda = "11.3", .driver = "460.80", .gpus = { "GTX 1650" }, .forward_compat = true });
    CHECK_THAT(finding(named, "forward-compat-unsupported-gpu")->message,
        StartsWith("forward compatibility (cuda-compat-11-3)"));
    Report bare = check({ .gpus = { "RTX 4090" }, .forward_compat = true });
    CHECK_THAT(finding(bare, "forward-compat-unsupported-gpu")->message,
        StartsWith("forward compatibility (the cuda-compat package)"));
    // A data-center GPU may load it.
    CHECK(check({ .driver = "570.211.01", .gpus = { "A100" }, .forward_compat = true }).verdict() == Verdict::ok);
}

TEST_CASE("forward compatibility fails on a data-center GPU whose last driver series is older than the package's",
    "[resolve]")
{
    // NVIDIA/gpu-operator#389: cuda-compat of CUDA 11.6 (R510) on a Tesla K80, whose last series
    // is 470, fails with 803/804; an A100 on the same host runs it
    Report k80 = check({ .cuda = "11.6", .driver = "470.82.01", .gpus = { "Tesla K80" }, .forward_compat = true });
    SHOW(k80);
    CHECK(k80.verdict() == Verdict::fail);
    CHECK(finding(k80, "forward-compat-dropped-gpu")->message
        == "cuda-compat-11-6 carries the libcuda of the 510 series, and the 470 series is the last that supports "
           "Kepler (Tesla K80): CUDA initialisation fails on it");
    CHECK_FALSE(has_code(check({ .cuda = "11.6", .driver = "470.82.01", .gpus = { "A100" }, .forward_compat = true }),
        "forward-compat-dropped-gpu"));
    // CUDA 11.4's own series is the K80's last
    CHECK_FALSE(
        has_code(check({ .cuda = "11.4", .driver = "470.82.01", .gpus = { "Tesla K80" }, .forward_compat = true }),
            "forward-compat-dropped-gpu"));
}
