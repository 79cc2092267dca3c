// The profile's python_runtime pinned: an archive it names, or the matrix's build of its minor.
#include "core/error.h"
#include "matrix/matrix.h"
#include "resolve/python_runtime.h"
#include "resolve/stack.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

resolve::Profile profile_with(const std::string& python, const std::string& packages)
{
    return resolve::Profile::parse("team.json",
        R"({"format": "dlenv.profile/v1", "name": "team", "framework": {"name": "torch", "version": "2.1",
            "cuda": "11.8"}, "python": ")"
            + python + R"(", "base_image": "nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04", "packages": )" + packages
            + "}");
}

} // namespace

TEST_CASE("a version-only python_runtime pins the matrix's python-build-standalone build for the machine", "[resolve]")
{
    const auto& matrix = matrix::Matrix::embedded();
    auto pin = resolve::pin_python_runtime(matrix, profile_with("3.11", R"({"python_runtime": "3.11"})"));
    REQUIRE(pin);
    CHECK(pin->url
        == "https://github.com/astral-sh/python-build-standalone/releases/download/20251031/"
           "cpython-3.11.14+20251031-x86_64-unknown-linux-gnu-install_only.tar.gz");
    CHECK(pin->sha256 == "60f0bd473d861cc45d3401d9914e47ccb9fa037f88a91879ed517a62042b8477");
    CHECK(pin->version == "3.11.14");
    CHECK(pin->release == "20251031");

    auto arm = resolve::pin_python_runtime(
        matrix, profile_with("3.11", R"({"python_runtime": "3.11", "machine": "aarch64"})"));
    REQUIRE(arm);
    CHECK(arm->sha256 == "510edb027527413c4249256194cb8ad2590b52dd93f7123b4cb341aff5d05894");
}

TEST_CASE("a named runtime archive is pinned as the profile names it, without a version", "[resolve]")
{
    std::string sha256(64, 'c');
    auto pin = resolve::pin_python_runtime(matrix::Matrix::embedded(),
        profile_with("3.10",
            R"({"python_runtime": {"url": "https://x.example/cpython-3.10-install_only.tar.gz", "sha256": ")" + sha256
                + R"("}})"));
    REQUIRE(pin);
    CHECK(pin->url == "https://x.example/cpython-3.10-install_only.tar.gz");
    CHECK(pin->sha256 == sha256);
    CHECK(pin->version.empty());
    CHECK(pin->release.empty());
    CHECK_FALSE(resolve::pin_python_runtime(matrix::Matrix::embedded(), profile_with("3.10", "{}")));
}

TEST_CASE("a CPython minor the matrix has no build of is a conflict naming the builds it has", "[resolve]")
{
    try {
        resolve::pin_python_runtime(matrix::Matrix::embedded(), profile_with("3.7", R"({"python_runtime": "3.7"})"));
        FAIL("expected an Error");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::conflict);
        CHECK(e.message()
            == "team.json: packages.python_runtime: the matrix has no python-build-standalone build of CPython 3.7 "
               "for x86_64 (it has 3.13.11, 3.12.12, 3.11.14, 3.10.19, 3.9.25, 3.8.20)");
        CHECK(e.hint()
            == "add the build to profiles/compat/python_runtimes.json, or name the archive: \"python_runtime\": "
               "{\"url\": ..., \"sha256\": ...}");
    }
}

TEST_CASE("the resolved stack carries the runtime pin", "[resolve]")
{
    auto resolution = resolve::resolve_profile(
        matrix::Matrix::embedded(), profile_with("3.10", R"({"python_runtime": "3.10"})"), {});
    REQUIRE(resolution.stack);
    REQUIRE(resolution.stack->python_runtime);
    CHECK(resolution.stack->python_runtime->version == "3.10.19");
}
