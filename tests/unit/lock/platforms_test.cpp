#include "core/error.h"
#include "lock/lockfile.h"
#include "lock/package_plan.h"
#include "matrix/matrix.h"
#include "resolve/profile.h"
#include "resolve/stack.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace dlenv;

namespace {

// pytorch-2.7-cu128 for both platforms, its arm64 side pinned as `dlenv lock` pins it.
lock::Lockfile two_platform_lock()
{
    resolve::Profile profile = resolve::load_profile("pytorch-2.7-cu128");
    profile.platforms = { "linux/amd64", "linux/arm64" };
    const auto& matrix = matrix::Matrix::embedded();
    auto resolution = resolve::resolve_profile(matrix, profile, {});
    REQUIRE(resolution.stack);
    lock::Lockfile lockfile = lock::Lockfile::from_stack(profile, matrix.sha256(), {}, *resolution.stack,
        resolution.report, lock::package_sources(profile, *resolution.stack), "lockfiles/fleet.lock.json");
    lockfile.pin_base(Digest::from_hex(std::string(64, 'a')), Digest::from_hex(std::string(64, 'b')), {});
    profile.packages.machine = "aarch64";
    lockfile.add_platform({ "linux/arm64", std::nullopt, std::nullopt,
        lock::python_environment(profile, *resolution.stack), std::nullopt });
    lockfile.pin_platform_base("linux/arm64", Digest::from_hex(std::string(64, 'c')), {});
    lockfile.set_platform_packages("linux/arm64",
        { { "torch", "2.7.1+cu128", "pytorch", "torch-2.7.1+cu128-cp312-cp312-manylinux_2_28_aarch64.whl",
            "https://download.pytorch.org/whl/cu128/torch-2.7.1%2Bcu128-cp312-cp312-manylinux_2_28_aarch64.whl",
            std::string(64, 'd'), std::nullopt, { "profile" } } });
    return lockfile;
}

} // namespace

TEST_CASE("a lock of two platforms writes the other under other_platforms and reads back the same bytes", "[lock]")
{
    lock::Lockfile lockfile = two_platform_lock();
    nlohmann::json json = nlohmann::json::parse(lockfile.text());
    CHECK(json["base_image"]["platform"] == "linux/amd64");
    REQUIRE(json["other_platforms"].size() == 1);
    CHECK(json["other_platforms"][0]["platform"] == "linux/arm64");
    CHECK(json["other_platforms"][0]["base_manifest"] == "sha256:" + std::string(64, 'c'));
    CHECK(json["other_platforms"][0]["python"]["machine"] == "aarch64");
    CHECK(json["python"]["machine"] == "x86_64");

    lock::Lockfile read = lock::Lockfile::parse("fleet.lock.json", lockfile.text());
    CHECK(read.text() == lockfile.text());
    CHECK(read.platforms() == std::vector<std::string> { "linux/amd64", "linux/arm64" });
}

TEST_CASE("a lock seen for its other platform gives that platform's base, Python and packages, and the whole lock's "
          "bytes",
    "[lock]")
{
    lock::Lockfile lockfile = two_platform_lock();
    lock::Lockfile arm = lockfile.for_platform("linux/arm64");
    CHECK(arm.base_image().platform == "linux/arm64");
    CHECK(arm.base_image().digest == Digest::from_hex(std::string(64, 'a')));
    CHECK(arm.base_image().manifest == Digest::from_hex(std::string(64, 'c')));
    CHECK(arm.python().machine == "aarch64");
    REQUIRE(arm.packages());
    REQUIRE(arm.packages()->size() == 1);
    CHECK(arm.packages()->at(0).filename == "torch-2.7.1+cu128-cp312-cp312-manylinux_2_28_aarch64.whl");
    CHECK(arm.digest() == lockfile.digest());
    CHECK(arm.text() == lockfile.text());

    lock::Lockfile own = lockfile.for_platform("linux/amd64");
    CHECK(own.base_image().manifest == Digest::from_hex(std::string(64, 'b')));
    CHECK(own.python().machine == "x86_64");
    CHECK_FALSE(own.packages());

    try {
        lockfile.for_platform("linux/s390x");
        FAIL("found a platform the lock lacks");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::not_found);
        CHECK(std::string(e.what()) == "lockfiles/fleet.lock.json: the lock has no platform linux/s390x");
        CHECK(e.hint() == "it pins linux/amd64, linux/arm64");
    }
}
