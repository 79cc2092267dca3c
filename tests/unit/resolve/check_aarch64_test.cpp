// `dlenv check` of torch on GPUs whose host is always Linux aarch64 (GH200, GB200) against the
// embedded matrix: PyTorch's aarch64 CUDA wheels, and pip's CPU wheel.

#include "support/check_ask.h"

using namespace dlenv;
using namespace dlenv::resolve;
using namespace dlenv::resolve::check_support;

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

TEST_CASE("pip's torch for aarch64 is the CPU build through 2.9: a GB200 takes it from PyTorch's index", "[resolve]")
{
    // pytorch/pytorch#160162 (through 2.8) and #168065 (2.9 on a GB200)
    Report pip = check({ .frameworks = { "torch==2.8.0" }, .gpus = { "GB200" } });
    SHOW(pip);
    CHECK(pip.verdict() == Verdict::warn);
    CHECK(problems(pip) == Codes { "torch-aarch64-pypi-cpu" });
    CHECK(finding(pip, "torch-aarch64-pypi-cpu")->message
        == "pip's torch 2.8.0 for Linux aarch64, the host of NVIDIA GB200 (Grace), is the CPU build: install the "
           "cu128 build from https://download.pytorch.org/whl/cu128");
    // a build named by its label or CUDA comes from PyTorch's index
    CHECK_FALSE(
        has_code(check({ .frameworks = { "torch==2.8.0+cu128" }, .gpus = { "GB200" } }), "torch-aarch64-pypi-cpu"));
    // after 2.9 PyPI's aarch64 wheel is not on record as the CPU build
    CHECK_FALSE(has_code(check({ .frameworks = { "torch==2.11.0" }, .gpus = { "GB200" } }), "torch-aarch64-pypi-cpu"));
    // a DGX Spark's GB10 carries its own Arm CPU
    CHECK(
        finding(check({ .frameworks = { "torch==2.8.0" }, .gpus = { "DGX Spark" } }), "torch-aarch64-pypi-cpu")->message
        == "pip's torch 2.8.0 for Linux aarch64, the host of NVIDIA GB10 (Grace), is the CPU build: install the cu128 "
           "build from https://download.pytorch.org/whl/cu128");
    // an x86 host's GPU is not held to any of it
    CHECK_FALSE(
        has_code(check({ .frameworks = { "torch==2.1.0" }, .gpus = { "H100" } }), "torch-no-aarch64-cuda-build"));
}
