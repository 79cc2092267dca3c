#include "core/file.h"
#include "verify/promises.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

lock::Lockfile shipped(const std::string& name)
{
    std::string file = std::string(DLENV_SOURCE_DIR) + "/lockfiles/" + name + ".lock.json";
    return lock::Lockfile::parse(file, read_file(file));
}

} // namespace

TEST_CASE("an nvidia/cuda runtime base with cuDNN promises cudart, cublas and cudnn at the lock's versions", "[verify]")
{
    verify::Promises promises = verify::promises_of(shipped("pytorch-2.1-cu121"));
    REQUIRE(promises.libraries.size() == 3);
    CHECK(promises.libraries[0].soname == "libcudart.so.12");
    CHECK(promises.libraries[1].soname == "libcublas.so.12");
    CHECK(promises.libraries[2].soname == "libcudnn.so.8");
    CHECK(promises.libraries[2].version == "8.9.2.26");
    CHECK(promises.libraries[0].promiser == "base nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04");
    CHECK(promises.cuda_version == "12.1.1");
    CHECK(promises.packages.empty());
    CHECK_FALSE(promises.framework);
    CHECK(promises.framework_name == "torch");
}

TEST_CASE("libcudart's soname carries X.Y up to CUDA 11 and X from 12 on", "[verify]")
{
    CHECK(verify::cudart_soname("10.2.89") == "libcudart.so.10.2");
    CHECK(verify::cudart_soname("11.8.0") == "libcudart.so.11.0");
    CHECK(verify::cudart_soname("12.4.1") == "libcudart.so.12");
}
