#include "resolve/framework_on_base.h"

#include "support/base_contents.h"

#include <catch2/catch.hpp>

using namespace dlenv;
using dlenv::testing::base_of;

namespace {

const matrix::Matrix& embedded()
{
    return matrix::Matrix::embedded();
}

resolve::FrameworkNeeds torch(std::string cuda, std::string cudnn, std::optional<std::vector<std::string>> packages)
{
    return { "torch", CudaVersion::parse(cuda), CudnnVersion::parse(cudnn), std::nullopt,
        resolve::library_sources_of(packages) };
}

const std::vector<std::string> k_no_cuda_wheels { "numpy", "torch" };

} // namespace

TEST_CASE("a CUDA 12 framework that loads the base's CUDA fails on a CUDA 11 base", "[resolve]")
{
    auto findings = resolve::check_framework_on_base(
        base_of({ "CUDA_VERSION=11.8.0" }), torch("12.1.1", "8.9.2.26", k_no_cuda_wheels), embedded());
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].code == "base-cuda");
    CHECK(findings[0].verdict == Verdict::fail);
    CHECK(findings[0].message
        == "torch is built with CUDA 12.1 and loads the base's CUDA libraries, but the base carries CUDA 11.8.0 "
           "(env CUDA_VERSION): their sonames carry the major (libcudart.so.12), so a CUDA 12 build cannot load "
           "them; use a CUDA 12.1 base");
    CHECK(findings[0].why.find("minor-version-compatibility") != std::string::npos);
}

TEST_CASE("a framework that brings its CUDA runtime in a wheel only hears that the base's is unused", "[resolve]")
{
    auto findings = resolve::check_framework_on_base(base_of({ "CUDA_VERSION=11.8.0" }),
        torch("12.1.1", "8.9.2.26", std::vector<std::string> { "nvidia-cuda-runtime-cu12", "nvidia-cudnn-cu12" }),
        embedded());
    REQUIRE(findings.size() == 2);
    CHECK(findings[0].verdict == Verdict::warn);
    CHECK(findings[0].message
        == "torch loads its CUDA 12.1 runtime from the nvidia-cuda-runtime-cu12 wheel; the base carries CUDA "
           "11.8.0 (env CUDA_VERSION), which it does not load");
    CHECK(findings[1].verdict == Verdict::ok);
    CHECK(findings[1].message == "torch loads cuDNN 8.9.2.26 from the nvidia-cudnn-cu12 wheel");
}

TEST_CASE("an update of the framework's CUDA line and a later line of its major both run it", "[resolve]")
{
    auto same_line = resolve::check_framework_on_base(
        base_of({ "CUDA_VERSION=13.0.2" }), torch("13.0.0", "9.13.0.50", std::nullopt), embedded());
    REQUIRE(same_line.size() == 1);
    CHECK(same_line[0].verdict == Verdict::ok);
    CHECK(same_line[0].message
        == "the base carries CUDA 13.0.2 (env CUDA_VERSION), an update of the CUDA 13.0 line torch is built with");
    auto later = resolve::check_framework_on_base(
        base_of({ "CUDA_VERSION=12.4.1" }), torch("12.1.1", "8.9.2.26", std::nullopt), embedded());
    CHECK(later[0].verdict == Verdict::ok);
    auto earlier = resolve::check_framework_on_base(
        base_of({ "CUDA_VERSION=12.1.1" }), torch("12.4.1", "9.1.0.70", std::nullopt), embedded());
    CHECK(earlier[0].verdict == Verdict::warn);
}

TEST_CASE("the base's cuDNN must be the framework's major and no older when the framework loads it", "[resolve]")
{
    std::vector<std::string> cuda_11 { "CUDA_VERSION=11.8.0", "NV_CUDNN_VERSION=8.9.6.50" };
    auto newer
        = resolve::check_framework_on_base(base_of(cuda_11), torch("11.8.0", "8.7.0.84", k_no_cuda_wheels), embedded());
    REQUIRE(newer.size() == 2);
    CHECK(newer[1].verdict == Verdict::ok);
    CHECK(newer[1].message
        == "the base carries cuDNN 8.9.6.50 (env NV_CUDNN_VERSION), which torch (built with cuDNN 8.7.0.84) loads");
    auto major
        = resolve::check_framework_on_base(base_of(cuda_11), torch("11.8.0", "9.1.0.70", k_no_cuda_wheels), embedded());
    CHECK(major[1].verdict == Verdict::fail);
    CHECK(major[1].message
        == "torch is built with cuDNN 9.1.0.70 and loads the base's, but the base carries cuDNN 8.9.6.50 (env "
           "NV_CUDNN_VERSION): cuDNN 9 builds load libcudnn.so.9");
    auto older
        = resolve::check_framework_on_base(base_of(cuda_11), torch("11.8.0", "8.9.7.29", k_no_cuda_wheels), embedded());
    CHECK(older[1].verdict == Verdict::fail);
}

TEST_CASE("a base that carries no CUDA gives no findings", "[resolve]")
{
    CHECK(resolve::check_framework_on_base(
        base_of({ "PATH=/usr/bin" }, "ubuntu:22.04"), torch("12.1.1", "8.9.2.26", k_no_cuda_wheels), embedded())
              .empty());
}

TEST_CASE("the base's NCCL is held to the framework's build where the framework loads it", "[resolve]")
{
    resolve::BaseContents base = base_of({ "CUDA_VERSION=12.1.1", "NV_LIBNCCL_PACKAGE_VERSION=2.17.1-1" });
    resolve::FrameworkNeeds needs = torch("12.1.1", "8.9.2.26", k_no_cuda_wheels);
    needs.nccl = NcclVersion::parse("2.18.1");
    auto older = resolve::check_framework_on_base(base, needs, embedded());
    REQUIRE(older.size() == 2);
    CHECK(older[1].code == "base-nccl");
    CHECK(older[1].verdict == Verdict::warn);
    CHECK(older[1].message
        == "torch is built with NCCL 2.18.1 but the base carries NCCL 2.17.1 (env NV_LIBNCCL_PACKAGE_VERSION), which "
           "is older: what the newer release added is missing");
    needs.sources = resolve::library_sources_of(std::vector<std::string> { "nvidia-nccl-cu12" });
    auto wheel = resolve::check_framework_on_base(base, needs, embedded());
    CHECK(wheel[1].verdict == Verdict::ok);
    CHECK(wheel[1].message
        == "torch loads NCCL 2.18.1 from the nvidia-nccl-cu12 wheel; the base's NCCL 2.17.1 is not the one it loads");
}
