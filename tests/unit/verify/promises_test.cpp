#include "core/file.h"
#include "verify/promises.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace dlenv;

namespace {

lock::Lockfile shipped(const std::string& name)
{
    std::string file = std::string(DLENV_SOURCE_DIR) + "/lockfiles/" + name + ".lock.json";
    return lock::Lockfile::parse(file, read_file(file));
}

// The config of NVIDIA's 12.1.1-cudnn8-runtime-ubuntu22.04 image, as its Dockerfiles set it
// (nvidia_images.json).
resolve::BaseDescription cuda_121_cudnn8_runtime()
{
    return { "nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04",
        { "CUDA_VERSION=12.1.1", "NV_CUDA_CUDART_VERSION=12.1.105-1", "NV_CUDA_LIB_VERSION=12.1.1-1",
            "NV_LIBCUBLAS_VERSION=12.1.3.1-1", "NV_LIBNCCL_PACKAGE_VERSION=2.17.1-1", "NV_CUDNN_VERSION=8.9.0.131" },
        { { "com.nvidia.cudnn.version", "8.9.0.131" } }, std::nullopt, {} };
}

const verify::PromisedLibrary& promised(const verify::Promises& promises, const std::string& soname)
{
    auto it = std::find_if(promises.libraries.begin(), promises.libraries.end(),
        [&](const verify::PromisedLibrary& library) { return library.soname == soname; });
    REQUIRE(it != promises.libraries.end());
    return *it;
}

} // namespace

TEST_CASE("an nvidia/cuda cudnn runtime base promises each library at its own component's version", "[verify]")
{
    const matrix::Matrix& matrix = matrix::Matrix::embedded();
    resolve::BaseContents base = resolve::base_contents_of(cuda_121_cudnn8_runtime(), matrix);
    verify::Promises promises = verify::promises_of(shipped("pytorch-2.1-cu121"), base, matrix);

    std::vector<std::string> sonames;
    for (const auto& library : promises.libraries)
        sonames.push_back(library.soname);
    CHECK(sonames
        == std::vector<std::string> { "libcudart.so.12", "libnvrtc.so.12", "libcublas.so.12", "libcublasLt.so.12",
            "libcufft.so.11", "libcufftw.so.11", "libcurand.so.10", "libcusolver.so.11", "libcusparse.so.12",
            "libnppc.so.12", "libnvJitLink.so.12", "libnvjpeg.so.12", "libcudnn.so.8", "libcudnn_ops_infer.so.8",
            "libcudnn_ops_train.so.8", "libcudnn_cnn_infer.so.8", "libcudnn_cnn_train.so.8", "libcudnn_adv_infer.so.8",
            "libcudnn_adv_train.so.8", "libnccl.so.2" });
    CHECK(promised(promises, "libcudart.so.12").version == "12.1.105");
    CHECK(promised(promises, "libcublas.so.12").version == "12.1.3.1");
    CHECK(promised(promises, "libcublas.so.12").promiser
        == "base nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04 (CUDA cuBLAS, env NV_LIBCUBLAS_VERSION)");
    CHECK(promised(promises, "libcusolver.so.11").version == "11.4.5.107");
    CHECK(promised(promises, "libcusolver.so.11").promiser
        == "base nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04 (CUDA cuSOLVER, cuda_components.json (CUDA 12.1.1))");
    CHECK(promised(promises, "libcudnn_cnn_infer.so.8").version == "8.9.0.131");
    CHECK(promised(promises, "libnccl.so.2").version == "2.17.1");
    CHECK(promises.packages.empty());
    CHECK_FALSE(promises.framework);
    CHECK(promises.framework_name == "torch");

    // torch 2.1.2+cu121 is built with cuDNN 8.9.2.26; the base's 8.9.0.131 is older, and
    // the offline lock pins no packages that would say whether a wheel brings its own.
    REQUIRE(promises.base.size() == 3);
    CHECK(promises.base[0].code == "base-cuda");
    CHECK(promises.base[0].verdict == Verdict::ok);
    CHECK(promises.base[1].code == "base-cudnn");
    CHECK(promises.base[1].verdict == Verdict::warn);
    CHECK(promises.base[1].message
        == "torch is built with cuDNN 8.9.2.26 but the base carries cuDNN 8.9.0.131 (env NV_CUDNN_VERSION), which "
           "is older: it serves torch only if a wheel brings a newer one, and the lock pins no packages to say so");
    // and with NCCL 2.18.1; NVIDIA's 12.1.1 runtime image carries 2.17.1.
    CHECK(promises.base[2].code == "base-nccl");
    CHECK(promises.base[2].verdict == Verdict::warn);
}

TEST_CASE("a base whose config says nothing of CUDA promises no CUDA library", "[verify]")
{
    const matrix::Matrix& matrix = matrix::Matrix::embedded();
    resolve::BaseContents base = resolve::base_contents_of({ "ubuntu:22.04", { "PATH=/usr/bin" }, {}, {}, {} }, matrix);
    verify::Promises promises = verify::promises_of(shipped("pytorch-2.1-cu121"), base, matrix);
    CHECK(promises.libraries.empty());
    CHECK(promises.base.empty());
}
