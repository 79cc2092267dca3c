#include "lock/base_image_section.h"
#include "matrix/matrix.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace dlenv;

namespace {

// The config of python:3.11-slim-bookworm as Docker Hub serves it: the official python
// images name their interpreter in PYTHON_VERSION.
resolve::BaseDescription python_base(const std::string& version)
{
    nlohmann::json env = { "PATH=/usr/local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "LANG=C.UTF-8", "GPG_KEY=A035C8C19219BA821ECEA86B64E628F8D684696D", "PYTHON_VERSION=" + version };
    return resolve::describe_config("python:3.11-slim-bookworm", { { "config", { { "Env", env } } } });
}

} // namespace

TEST_CASE("a base carries the CUDA, cuDNN and NCCL its config says, and the Python of PYTHON_VERSION", "[lock]")
{
    resolve::BaseDescription cuda = resolve::describe_config("team/cuda:11.8",
        { { "config",
            { { "Env", { "CUDA_VERSION=11.8.0", "NV_LIBNCCL_PACKAGE_VERSION=2.15.5-1", "NV_CUDNN_VERSION=8.9.6.50" } },
                { "Labels", { { "com.nvidia.cudnn.version", "8.9.6.50" } } } } } });
    lock::BaseCarries carries
        = lock::base_carries_of(cuda, resolve::base_contents_of(cuda, matrix::Matrix::embedded()));
    REQUIRE(carries.cuda);
    CHECK(carries.cuda->value.text() == "11.8.0");
    CHECK(carries.cuda->origin == "env CUDA_VERSION");
    REQUIRE(carries.cudnn);
    CHECK(carries.cudnn->value.text() == "8.9.6.50");
    CHECK(carries.cudnn->origin == "env NV_CUDNN_VERSION");
    REQUIRE(carries.nccl);
    CHECK(carries.nccl->value.text() == "2.15.5");
    CHECK(carries.nccl->origin == "env NV_LIBNCCL_PACKAGE_VERSION");
    CHECK_FALSE(carries.python);

    resolve::BaseDescription python = python_base("3.11.9");
    carries = lock::base_carries_of(python, resolve::base_contents_of(python, matrix::Matrix::embedded()));
    CHECK_FALSE(carries.cuda);
    CHECK_FALSE(carries.cudnn);
    CHECK_FALSE(carries.nccl);
    REQUIRE(carries.python);
    CHECK(carries.python->value.text() == "3.11.9");
    CHECK(carries.python->origin == "env PYTHON_VERSION");
}

TEST_CASE("a PYTHON_VERSION that is no release version is not recorded", "[lock]")
{
    for (const std::string version : { "3.13.0rc2", "", "3" }) {
        INFO(version);
        CHECK_FALSE(lock::base_carries_of(python_base(version), {}).python);
    }
}
