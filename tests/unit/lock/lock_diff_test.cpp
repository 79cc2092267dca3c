#include "core/file.h"
#include "lock/lock_diff.h"
#include "support/resigned_lock.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace dlenv;
using dlenv::testing::resigned_lock;

namespace {

const std::string k_every_section = std::string(DLENV_SOURCE_DIR) + "/tests/fixtures/lock/every_section.lock.json";

lock::Lockfile shipped(const std::string& name)
{
    std::string path = std::string(DLENV_SOURCE_DIR) + "/lockfiles/" + name + ".lock.json";
    return lock::Lockfile::parse(path, read_file(path));
}

lock::Lockfile every_section(void (*edit)(nlohmann::json&))
{
    nlohmann::json json = nlohmann::json::parse(read_file(k_every_section));
    edit(json);
    return lock::Lockfile::parse("edited.lock.json", resigned_lock(json));
}

// python3.11 as bookworm shipped it before and after the 3.11.2-6+deb12u6 security update.
lock::SystemPackagesSection python_debs(const std::string& version, const std::string& sha256)
{
    lock::SystemPackagesSection section;
    section.requested = { "python3.11" };
    section.architecture = "amd64";
    section.archive
        = { "http://deb.debian.org/debian", { "bookworm" }, { "main" }, "default for debian 12 (bookworm)", {} };
    section.packages.push_back({ "python3.11", version, "amd64", "python3.11_" + version + "_amd64.deb",
        "http://deb.debian.org/debian/pool/main/p/python3.11/python3.11_" + version + "_amd64.deb", 1, sha256,
        "bookworm/main", { "profile" } });
    return section;
}

} // namespace

TEST_CASE("a lock compared with itself has no changes", "[lock]")
{
    auto lock = shipped("pytorch-2.1-cu118");
    auto diff = lock::diff_locks(lock, lock);
    CHECK(diff.empty());
    CHECK(diff.size() == 0);
}

TEST_CASE("cu118 to cu121 of torch 2.1 changes CUDA, cuDNN, NCCL, the base, the driver floors and the GPUs", "[lock]")
{
    auto diff = lock::diff_locks(shipped("pytorch-2.1-cu118"), shipped("pytorch-2.1-cu121"));
    REQUIRE(diff.stack.size() == 7);
    CHECK(diff.stack[0].field == "framework");
    CHECK(diff.stack[0].before == "torch 2.1.2+cu118");
    CHECK(diff.stack[0].after == "torch 2.1.2+cu121");
    CHECK(diff.stack[5].field == "NCCL");
    CHECK(diff.stack[5].before == std::nullopt);
    CHECK(diff.stack[5].after == "2.18.1");
    REQUIRE(diff.base_image.size() == 1);
    CHECK(diff.base_image[0].after == "nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04");
    REQUIRE(diff.driver.size() == 2);
    CHECK(diff.driver[0].before == "520.61.05");
    CHECK(diff.driver[0].after == "530.30.02");
    REQUIRE(diff.gpus.size() == 2);
    CHECK(diff.gpus[0].field == "NVIDIA A10G");
    CHECK(diff.gpus[0].after == std::nullopt);
    CHECK(diff.gpus[1].field == "NVIDIA L4");
    CHECK(diff.gpus[1].after == "ok");
    CHECK(diff.packages.empty());
    CHECK(diff.system_packages.empty());
}

TEST_CASE("the same version pinned to other bytes is a sha256 change, and nothing else changed", "[lock]")
{
    auto before = lock::Lockfile::parse(k_every_section, read_file(k_every_section));
    auto after = every_section([](nlohmann::json& json) { json["packages"][1]["sha256"] = std::string(64, 'f'); });
    auto diff = lock::diff_locks(before, after);
    REQUIRE(diff.size() == 1);
    REQUIRE(diff.packages.size() == 1);
    CHECK(diff.packages[0].name == "torch");
    CHECK(diff.packages[0].kind() == lock::PackageChangeKind::sha256);
    CHECK(diff.packages[0].before->sha256 == std::string(64, 'e'));
    CHECK(diff.packages[0].after->sha256 == std::string(64, 'f'));
}

TEST_CASE("packages added, removed and upgraded are told apart by name", "[lock]")
{
    auto before = lock::Lockfile::parse(k_every_section, read_file(k_every_section));
    auto after = every_section([](nlohmann::json& json) {
        json["packages"][0]["version"] = "1.26.3";
        json["packages"].erase(1);
    });
    auto diff = lock::diff_locks(after, before);
    REQUIRE(diff.packages.size() == 2);
    CHECK(diff.packages[0].name == "numpy");
    CHECK(diff.packages[0].kind() == lock::PackageChangeKind::version);
    CHECK(diff.packages[1].name == "torch");
    CHECK(diff.packages[1].kind() == lock::PackageChangeKind::added);
    CHECK(lock::diff_locks(before, after).packages[1].kind() == lock::PackageChangeKind::removed);
}

TEST_CASE("system packages are compared by name, version and sha256 like the Python ones", "[lock]")
{
    auto before = shipped("pytorch-2.1-cu118");
    auto after = before;
    before.set_system_packages(python_debs("3.11.2-6+deb12u5", std::string(64, 'a')));
    after.set_system_packages(python_debs("3.11.2-6+deb12u6", std::string(64, 'b')));
    auto diff = lock::diff_locks(before, after);
    REQUIRE(diff.size() == 1);
    REQUIRE(diff.system_packages.size() == 1);
    CHECK(diff.system_packages[0].kind() == lock::PackageChangeKind::version);
    CHECK(diff.system_packages[0].before->version == "3.11.2-6+deb12u5");
    CHECK(diff.system_packages[0].after->version == "3.11.2-6+deb12u6");
}

TEST_CASE("a framework beside the stack's own is compared by name: added, upgraded, its extra changed", "[lock]")
{
    auto before = lock::Lockfile::parse(k_every_section, read_file(k_every_section));
    auto jax_30 = every_section([](nlohmann::json& json) {
        json["stack"]["also"] = { { { "name", "jax" }, { "version", "0.4.30" }, { "local_version", "0.4.30" },
            { "variant", "cuda12" }, { "extra", "cuda12" } } };
    });
    auto jax_31 = every_section([](nlohmann::json& json) {
        json["stack"]["also"] = { { { "name", "jax" }, { "version", "0.4.31" }, { "local_version", "0.4.31" },
            { "variant", "cuda12" }, { "extra", "cuda12_local" } } };
    });
    REQUIRE(jax_30.stack().also.size() == 1);
    CHECK(jax_30.stack().also[0].public_version == "0.4.30");
    auto added = lock::diff_locks(before, jax_30);
    REQUIRE(added.stack.size() == 1);
    CHECK(added.stack[0].field == "jax");
    CHECK(added.stack[0].before == std::nullopt);
    CHECK(added.stack[0].after == "0.4.30 [cuda12]");
    auto upgraded = lock::diff_locks(jax_30, jax_31);
    REQUIRE(upgraded.size() == 1);
    CHECK(upgraded.stack[0].field == "jax");
    CHECK(upgraded.stack[0].before == "0.4.30 [cuda12]");
    CHECK(upgraded.stack[0].after == "0.4.31 [cuda12_local]");
}
