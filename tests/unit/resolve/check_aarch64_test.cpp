// `dlenv check` of torch on GPUs whose host is always Linux aarch64 (GH200, GB200) against the
// embedded matrix: PyTorch's aarch64 CUDA wheels, and pip's CPU wheel.

#include "support/check_ask.h"

using namespace dlenv;
using namespace dlenv::resolve;
using namespace dlenv::resolve::check_support;
using Catch::Matchers::Contains;

TEST_CASE("torch before 2.4 has no aarch64 CUDA build, so a GH200's Grace host cannot run it", "[resolve]")
{
    // pytorch/builder#1856: no aarch64 CUDA wheel of 2.3.0; #134117: the cu124 one of 2.4.0
    Report r = check({ .frameworks = { "torch==2.1.0" }, .gpus = { "GH200" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "torch-no-aarch64-cuda-build" });
    CHECK(finding(r, "torch-no-aarch64-cuda-build")->message
        == "torch 2.1.0 has no CUDA build for Linux aarch64, the host of NVIDIA GH200 480GB (Grace): PyTorch's aarch64 "
           "CUDA wheels begin with 2.4.0, and its aarch64 wheels before are the CPU build");
    CHECK(suggests(r,
        "on NVIDIA GH200 480GB use torch >= 2.4.0 from PyTorch's CUDA index (https://download.pytorch.org/whl/cuXYZ), "
        "or NVIDIA's PyTorch container"));
    // NVIDIA's container builds torch from source: not a wheel, not judged as one
    CHECK_FALSE(has_code(
        check({ .frameworks = { "torch==2.1.0a0+29c30b1" }, .gpus = { "GH200" } }), "torch-no-aarch64-cuda-build"));
}

TEST_CASE("pip's torch for aarch64 is the CPU build through 2.10: a GB200 takes it from PyTorch's index", "[resolve]")
{
    // pytorch/pytorch#160162 (through 2.8) and #168065 (2.9 on a GB200)
    Report pip = check({ .frameworks = { "torch==2.8.0" }, .gpus = { "GB200" } });
    SHOW(pip);
    CHECK(pip.verdict() == Verdict::fail);
    CHECK(problems(pip) == Codes { "torch-aarch64-pypi-cpu" });
    CHECK(finding(pip, "torch-aarch64-pypi-cpu")->message
        == "pip's torch 2.8.0 for Linux aarch64, the host of NVIDIA GB200 (Grace), is the CPU build, which leaves "
           "NVIDIA GB200 unused: install the cu128 build from https://download.pytorch.org/whl/cu128");
    // a build named by its label or CUDA comes from PyTorch's index
    CHECK_FALSE(
        has_code(check({ .frameworks = { "torch==2.8.0+cu128" }, .gpus = { "GB200" } }), "torch-aarch64-pypi-cpu"));
    // 2.10 too (the PyTorch blog on 2.11, the first with CUDA aarch64 wheels on PyPI; mlipops#10); 2.11 on is not
    CHECK(has_code(check({ .frameworks = { "torch==2.10.0" }, .gpus = { "GB200" } }), "torch-aarch64-pypi-cpu"));
    CHECK_FALSE(has_code(check({ .frameworks = { "torch==2.11.0" }, .gpus = { "GB200" } }), "torch-aarch64-pypi-cpu"));
    // a DGX Spark's GB10 carries its own Arm CPU
    CHECK(finding(check({ .frameworks = { "torch==2.10.0" }, .gpus = { "DGX Spark GB10" } }), "torch-aarch64-pypi-cpu")
              ->message
        == "pip's torch 2.10.0 for Linux aarch64, the host of NVIDIA GB10 (Grace), is the CPU build, which leaves "
           "NVIDIA GB10 unused: install the cu128 build from https://download.pytorch.org/whl/cu128");
    // an x86 host's GPU is not held to any of it
    CHECK_FALSE(
        has_code(check({ .frameworks = { "torch==2.1.0" }, .gpus = { "H100" } }), "torch-no-aarch64-cuda-build"));
}

TEST_CASE("on a GPU only an Arm host carries, torch is judged by its aarch64 wheels' own GPU code", "[resolve]")
{
    // RELEASE.md, 2.12 to 2.14: the aarch64 cu130 wheels carry 8.0, 9.0, 10.0, 11.0 and 12.0, the
    // x86_64 ones 7.5 to 12.0 without Thor's 11.0
    Report thor = check({ .frameworks = { "torch==2.12.1+cu130" }, .cuda = "13.0", .gpus = { "Jetson Thor" } });
    SHOW(thor);
    CHECK(thor.verdict() == Verdict::ok);
    CHECK(finding(thor, "gpu-cubin")->message == "torch 2.12.1 cu130 carries sm_110 kernels for Jetson Thor");
    // Orin's sm_87 runs the aarch64 wheel's sm_80 code, and the list named is the aarch64 one
    CHECK_THAT(finding(check({ .frameworks = { "torch==2.13.0+cu130" }, .gpus = { "Jetson AGX Orin" } }),
                   "gpu-cubin-compatible")
                   ->message,
        Contains("has no sm_87 kernels (8.0;9.0;10.0;11.0;12.0+PTX); its sm_80 cubins run on 8.7"));
    // Grace parts too; an x86 host's GPU keeps the x86_64 list
    CHECK_THAT(finding(check({ .frameworks = { "torch==2.13.0+cu130" }, .gpus = { "GB10" } }), "gpu-cubin-compatible")
                   ->message,
        Contains("(8.0;9.0;10.0;11.0;12.0+PTX)"));
    CHECK_THAT(
        finding(check({ .frameworks = { "torch==2.13.0+cu130" }, .gpus = { "RTX 4090" } }), "gpu-cubin-compatible")
            ->message,
        Contains("(7.5;8.0;8.6;9.0;10.0;12.0+PTX); its sm_86 cubins run on 8.9"));
    // each GPU by its own host's wheels: Thor beside an RTX 4090 still has its 11.0
    Report mixed = check({ .frameworks = { "torch==2.12.1+cu130" }, .gpus = { "Jetson Thor", "RTX 4090" } });
    CHECK(mixed.verdict() == Verdict::ok);
    CHECK(has_code(mixed, "gpu-cubin"));
    CHECK_FALSE(has_code(mixed, "gpu-no-kernel"));
    // the aarch64 code has its own sources: not the x86_64 row's PyPI-default report
    CHECK_THAT(finding(thor, "gpu-cubin")->why, !Contains("178665"));
    // where the aarch64 list is not on record (2.10), code the x86_64 wheels lack is unknown, not missing
    Report unknown = check({ .frameworks = { "torch==2.10.0+cu130" }, .cuda = "13.0", .gpus = { "Jetson Thor" } });
    SHOW(unknown);
    CHECK(unknown.verdict() == Verdict::warn);
    CHECK(problems(unknown) == Codes { "gpu-host-code-unknown" });
    CHECK(finding(unknown, "gpu-host-code-unknown")->message
        == "torch 2.10.0 cu130's Linux x86_64 wheels carry no code for Jetson Thor (sm_110) (7.5;8.0;8.6;9.0;10.0;12.0"
           "+PTX), and which architectures its Linux aarch64 wheels, those of Jetson Thor's host, carry is not on "
           "record: whether it runs there is not known");
    // an x86 host's GPU the wheels lack is still an error, as is the cuDNN 9.19 they bundle
    CHECK(problems(check({ .frameworks = { "torch==2.11.0+cu130" }, .gpus = { "GTX 1080 Ti" } }))
        == Codes { "cudnn-gpu-unsupported", "gpu-no-kernel" });
    // holohub#1687: 2.11's aarch64 cu130 wheel lists 8.0, 9.0, 10.0, 11.0 and 12.0
    CHECK(has_code(check({ .frameworks = { "torch==2.11.0+cu130" }, .gpus = { "Jetson AGX Thor" } }), "gpu-cubin"));
    // openral#167: 2.9.1's aarch64 cu128 wheel lists 8.0, 9.0, 10.0 and 12.0; GB10's 12.1 runs
    // the 12.0 cubins, and a Thor, named as CUDA names it, runs no CUDA 12 wheel
    CHECK_THAT(
        finding(check({ .frameworks = { "torch==2.9.1+cu128" }, .gpus = { "GB10" } }), "gpu-capability-range-warning")
            ->message,
        Contains("(8.0;9.0;10.0;12.0 (no PTX))"));
    CHECK(has_code(
        check({ .frameworks = { "torch==2.9.1+cu128" }, .gpus = { "NVIDIA Thor" } }), "jetson-needs-jetpack-build"));
}
