#include "resolve/base_contents.h"

#include "support/base_contents.h"

#include <catch2/catch.hpp>

using namespace dlenv;
using dlenv::testing::base_of;

namespace {

const matrix::Matrix& embedded()
{
    return matrix::Matrix::embedded();
}

resolve::BaseContents files_of(
    std::vector<resolve::FoundLibrary> found, std::string reference = "registry.team/cuda:13.0")
{
    return resolve::base_contents_of(
        { std::move(reference), { "PATH=/usr/bin" }, {}, std::nullopt, std::move(found) }, embedded());
}

std::vector<std::string> sonames(const resolve::BaseContents& base)
{
    std::vector<std::string> out;
    for (const auto& library : base.libraries)
        out.push_back(library.soname);
    return out;
}

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
                                                                   "libcublas": {"name": "CUDA cuBLAS", "version": "12.1.3.1"}})",
                                                               {} },
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
    CHECK_THROWS_WITH(resolve::base_contents_of({ "b", {}, {}, R"({"cuda": 12})", {} }, embedded()),
        Catch::Contains("/usr/local/cuda/version.json"));
}

TEST_CASE("a base that declares nothing is read from the libraries found in it", "[resolve]")
{
    resolve::BaseContents base = files_of({ { "libcudart.so.13", "libcudart.so.13.0.96" },
        { "libcublas.so.13", "libcublas.so.13.1.0.3" }, { "libcudnn.so.9", "libcudnn.so.9.19.0" },
        { "libcudnn_graph.so.9", "libcudnn_graph.so.9.19.0" }, { "libnccl.so.2", "libnccl.so.2.28.9" } });
    REQUIRE(base.cuda);
    CHECK(base.cuda->value.text() == "13.0.2"); // the release whose cudart is 13.0.96
    CHECK(base.cuda->origin == "file libcudart.so.13.0.96");
    // cuBLAS is held whole, with cuBLASLt; cuDNN's shim with all it dlopens.
    CHECK(sonames(base)
        == std::vector<std::string> { "libcudart.so.13", "libcublas.so.13", "libcublasLt.so.13", "libcudnn.so.9",
            "libcudnn_graph.so.9", "libcudnn_ops.so.9", "libcudnn_cnn.so.9", "libcudnn_adv.so.9",
            "libcudnn_engines_precompiled.so.9", "libcudnn_engines_runtime_compiled.so.9", "libcudnn_heuristic.so.9",
            "libnccl.so.2" });
    CHECK(base.libraries[2].version->value == "13.1.0.3");
    CHECK(
        base.libraries[2].version->origin == "cuda_components.json (CUDA 13.0.2, which file libcudart.so.13.0.96 is)");
    REQUIRE(base.cudnn);
    CHECK(base.cudnn->value.text() == "9.19.0");
    REQUIRE(base.nccl);
    CHECK(base.nccl->value.text() == "2.28.9");
}

TEST_CASE("files named by soname alone give the libraries but no release", "[resolve]")
{
    resolve::BaseContents base
        = files_of({ { "libcudart.so.13", "libcudart.so.13" }, { "libcublasLt.so.13", "libcublasLt.so.13" } });
    CHECK_FALSE(base.cuda);
    CHECK(sonames(base) == std::vector<std::string> { "libcudart.so.13", "libcublas.so.13", "libcublasLt.so.13" });
    CHECK_FALSE(base.libraries[1].version);
}

TEST_CASE("the image's files come before its name, which is read only when nothing else says", "[resolve]")
{
    resolve::BaseContents named = files_of({}, "nvidia/cuda:12.1.1-runtime-ubuntu22.04");
    REQUIRE(named.cuda);
    CHECK(named.cuda->origin == "tag nvidia/cuda:12.1.1-runtime-ubuntu22.04");
    resolve::BaseContents files
        = files_of({ { "libcudart.so.12", "libcudart.so.12.4.127" } }, "nvidia/cuda:12.1.1-runtime-ubuntu22.04");
    REQUIRE(files.cuda);
    CHECK(files.cuda->value.text() == "12.4");
    CHECK(files.cuda->origin == "file libcudart.so.12.4.127");
}

TEST_CASE("cuDNN found in a base that declares CUDA but not cuDNN is held whole", "[resolve]")
{
    resolve::BaseContents base
        = resolve::base_contents_of({ "registry.team/cuda:12.1", { "CUDA_VERSION=12.1.1" }, {}, std::nullopt,
                                        { { "libcudnn.so.8", "libcudnn.so.8.9.2" } } },
            embedded());
    REQUIRE(base.cudnn);
    CHECK(base.cudnn->value.text() == "8.9.2");
    CHECK(base.cudnn->origin == "file libcudnn.so.8.9.2");
    CHECK(base.libraries.back().soname == "libcudnn_adv_train.so.8");
}
