#include "resolve/framework_on_base.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

const matrix::Matrix& embedded()
{
    return matrix::Matrix::embedded();
}

resolve::BaseContents base_of(std::vector<std::string> env, std::string reference = "registry.team/cuda:base")
{
    return resolve::base_contents_of({ std::move(reference), std::move(env), {}, std::nullopt }, embedded());
}

resolve::FrameworkNeeds torch(std::string cuda, std::string cudnn, std::optional<std::vector<std::string>> packages)
{
    return { "torch", CudaVersion::parse(cuda), CudnnVersion::parse(cudnn), resolve::library_sources_of(packages) };
}

const std::vector<std::string> k_no_cuda_wheels { "numpy", "torch" };

} // namespace

TEST_CASE("a re-tagged NVIDIA base is read from its config, not its name", "[resolve]")
{
    resolve::BaseContents base = base_of({ "CUDA_VERSION=11.8.0", "NV_CUDA_LIB_VERSION=11.8.0-1",
        "NV_LIBCUBLAS_VERSION=11.11.3.6-1", "NV_CUDNN_VERSION=8.9.6.50", "NV_LIBNCCL_PACKAGE_VERSION=2.15.5-1" });
    REQUIRE(base.cuda);
    CHECK(base.cuda->value.text() == "11.8.0");
    CHECK(base.cuda->origin == "env CUDA_VERSION");
    REQUIRE(base.cudnn);
    CHECK(base.cudnn->value.text() == "8.9.6.50");
    REQUIRE(base.nccl);
    CHECK(base.nccl->value.text() == "2.15.5");
    REQUIRE(base.libraries.size() == 19); // 11 of CUDA 11.8 (no nvJitLink before 12.0), 7 of cuDNN 8, NCCL
    CHECK(base.libraries[0].soname == "libcudart.so.11.0");
    CHECK(base.libraries[0].version->value == "11.8.89");
    CHECK(base.libraries[1].soname == "libnvrtc.so.11.2");
    CHECK(base.libraries[2].soname == "libcublas.so.11");
    CHECK(base.libraries[2].version->value == "11.11.3.6");
    CHECK(base.libraries[2].version->origin == "env NV_LIBCUBLAS_VERSION");
    CHECK(base.libraries.back().soname == "libnccl.so.2");
}

TEST_CASE("version.json's component versions come before the config's and the matrix's", "[resolve]")
{
    resolve::BaseContents base = resolve::base_contents_of({ "nvidia/cuda:12.1.1-runtime-ubuntu22.04", {}, {},
                                                               R"({"cuda": {"name": "CUDA SDK", "version": "12.1.1"},
                                                                   "libcublas": {"name": "CUDA cuBLAS", "version": "12.1.3.1"}})" },
        embedded());
    REQUIRE(base.cuda);
    CHECK(base.cuda->origin == "/usr/local/cuda/version.json");
    CHECK(base.libraries[2].soname == "libcublas.so.12");
    CHECK(base.libraries[2].version->origin == "/usr/local/cuda/version.json");
    CHECK(base.libraries[4].soname == "libcufft.so.11");
    CHECK(base.libraries[4].version->value == "11.0.2.54");
    CHECK(base.libraries[4].version->origin == "cuda_components.json (CUDA 12.1.1)");
}

TEST_CASE("a value that is no version is refused naming the variable", "[resolve]")
{
    CHECK_THROWS_WITH(
        base_of({ "CUDA_VERSION=12.x" }), Catch::Contains("base image registry.team/cuda:base: env CUDA_VERSION: "));
    CHECK_THROWS_WITH(resolve::base_contents_of({ "b", {}, {}, R"({"cuda": 12})" }, embedded()),
        Catch::Contains("/usr/local/cuda/version.json"));
}

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
