// `dlenv fetch` and `dlenv build` with a lock that pins Python packages, as a user runs them.
#include "core/file.h"
#include "core/sha256.h"
#include "support/python_base.h"
#include "support/run_dlenv.h"
#include "support/scratch.h"
#include "support/torch_lock.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace dlenv;
using dlenv::testing::run_dlenv;
namespace fs = std::filesystem;

namespace {

nlohmann::json json_of(const std::vector<std::string>& args)
{
    auto r = run_dlenv(args);
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out);
}

std::vector<std::string> field(const nlohmann::json& list, const std::string& name)
{
    std::vector<std::string> out;
    for (const auto& item : list)
        out.push_back(item.at(name).get<std::string>());
    return out;
}

std::int64_t total_bytes(const nlohmann::json& artifacts)
{
    std::int64_t total = 0;
    for (const auto& artifact : artifacts)
        total += artifact.at("bytes").get<std::int64_t>();
    return total;
}

} // namespace

TEST_CASE("dlenv fetch brings each pinned wheel into the store once and says what it did", "[image]")
{
    Scratch scratch;
    testing::make_fixture_wheels(scratch, "wheels");
    std::string lock = testing::lock_torch_profile(
        scratch, "torch.lock.json", { "--offline", "--wheelhouse", (scratch / "wheels").string() });
    std::string store = (scratch / "store").string();
    auto first = json_of({ "fetch", lock, "--store", store, "--json" });
    CHECK(field(first.at("artifacts"), "state") == std::vector<std::string>(7, "fetched"));
    CHECK_FALSE(first.contains("note"));

    auto again = run_dlenv({ "fetch", lock, "--store", store });
    CHECK(again.exit_code == 0);
    CHECK_THAT(again.out, Catch::StartsWith("cached   filelock-3.13.1-py3-none-any.whl ("));
    CHECK_THAT(again.out,
        Catch::EndsWith("artifacts of " + lock + " in " + store + ": 0 fetched (0 bytes), " + "7 already in the store ("
            + std::to_string(total_bytes(first.at("artifacts"))) + " bytes)\n"));
}

TEST_CASE("dlenv fetch of a lock without packages says why there is nothing to fetch", "[image]")
{
    Scratch scratch;
    std::string lock = testing::lock_torch_profile(scratch, "torch.lock.json", { "--offline" });
    auto r = run_dlenv({ "fetch", lock, "--store", (scratch / "store").string() });
    CHECK(r.exit_code == 0);
    CHECK(r.out
        == "nothing to fetch: " + lock
            + ": its Python packages are not locked (it was locked --offline without --wheelhouse)\n");
    CHECK_FALSE(fs::exists(scratch / "store"));
}

TEST_CASE("a build installs the packages as a layer and reuses it while the closure is unchanged, wheels gone or not",
    "[image]")
{
    Scratch scratch;
    testing::make_fixture_wheels(scratch, "wheels");
    std::string lock = testing::lock_torch_profile(
        scratch, "torch.lock.json", { "--offline", "--wheelhouse", (scratch / "wheels").string() });
    std::string store = (scratch / "store").string();
    std::string base = testing::make_python_base(scratch, "base", "local 3.11");
    auto first = json_of({ "build", lock, "--store", store, "--base", base, "--json" });
    CHECK(field(first.at("layers"), "created_by")
        == std::vector<std::string> { "dlenv build: 7 Python packages into /usr/local/lib/python3.11/site-packages",
            "dlenv build: validation kit in /opt/dlenv" });
    CHECK(field(first.at("fetched"), "state") == std::vector<std::string>(7, "fetched"));
    // The 7 wheels, and the lock and SBOM kept beside the image.
    CHECK(json_of({ "fsck", "--store", store, "--json" }).at("checked_artifacts") == 9);

    // Neither the wheelhouse nor the store's copies are needed for the same closure again.
    fs::remove_all(scratch / "wheels");
    fs::remove_all(scratch / "store" / "dlenv" / "artifacts");
    auto second = json_of({ "build", lock, "--store", store, "--base", base, "--json" });
    CHECK(second.at("digest") == first.at("digest"));
    CHECK(second.at("layers")[0].at("reused") == true);
    CHECK(second.at("fetched").empty());

    auto elsewhere = run_dlenv({ "build", lock, "--store", (scratch / "other").string(), "--base", base });
    CHECK(elsewhere.exit_code == 2); // the wheelhouse the lock names is gone
}

TEST_CASE("a wheel damaged in the store fails the build naming the layer and the wheel", "[image]")
{
    Scratch scratch;
    testing::make_fixture_wheels(scratch, "wheels");
    std::string lock = testing::lock_torch_profile(
        scratch, "torch.lock.json", { "--offline", "--wheelhouse", (scratch / "wheels").string() });
    std::string store = (scratch / "store").string();
    json_of({ "fetch", lock, "--store", store, "--json" });
    const std::string wheel = "filelock-3.13.1-py3-none-any.whl";
    fs::path artifact = scratch / "store/dlenv/artifacts/sha256" / sha256_file_hex(scratch / "wheels" / wheel);
    fs::permissions(artifact, fs::perms::owner_write, fs::perm_options::add);
    write_file_atomic(artifact, "not a zip file");

    auto r = run_dlenv({ "build", lock, "--store", store, "--base",
        testing::make_python_base(scratch, "base", "local 3.11"), "--json" });
    CHECK(r.exit_code == 2);
    std::string error = testing::error_of(r);
    CHECK_THAT(error, Catch::StartsWith("packages layer: install " + wheel + ": read wheel "));
    CHECK_THAT(error, Catch::Contains("/wheels/" + wheel + ": "));
    CHECK_THAT(error, Catch::EndsWith(" | the wheel is damaged or not a zip file: fetch or build it again"));
}

TEST_CASE("on a base with Debian's python3 the packages go to its dist-packages, for its interpreter", "[image]")
{
    Scratch scratch;
    testing::make_fixture_wheels(scratch, "wheels");
    std::string lock = testing::lock_torch_profile(
        scratch, "torch.lock.json", { "--offline", "--wheelhouse", (scratch / "wheels").string() });
    std::string base = testing::make_python_base(scratch, "base", "debian");
    auto built = json_of({ "build", lock, "--store", (scratch / "store").string(), "--base", base, "--json" });
    // This machine's python3 is Debian 12's 3.11, as the fixture wheels' Python.
    CHECK(built.at("python")
        == nlohmann::json { "Python packages for Debian's python3 /usr/bin/python3.11 into "
                            "/usr/local/lib/python3.11/dist-packages",
            "its Python is marked EXTERNALLY-MANAGED (PEP 668): dlenv adds the packages as a layer and never runs "
            "pip in the image, so the mark does not forbid it" });
    CHECK(built.at("layers")[0].at("created_by")
        == "dlenv build: 7 Python packages into /usr/local/lib/python3.11/dist-packages");
}

TEST_CASE("a base whose python3 is not the lock's Python fails the build naming both", "[image]")
{
    Scratch scratch;
    testing::make_fixture_wheels(scratch, "wheels");
    std::string lock = testing::lock_torch_profile(
        scratch, "torch.lock.json", { "--offline", "--wheelhouse", (scratch / "wheels").string() });
    std::string base = testing::make_python_base(scratch, "base", "local 3.10");
    auto r = run_dlenv({ "build", lock, "--store", (scratch / "store").string(), "--base", base, "--json" });
    CHECK(r.exit_code == 1);
    CHECK(testing::error_of(r)
        == "the base's python3 is 3.10 (/usr/local/bin/python3.10), the lock's python is 3.11 | lock the profile "
           "with python 3.10, or use a base with Python 3.11");
}

TEST_CASE("packages without a python_runtime on a base without python3 fail the build saying what to do", "[image]")
{
    Scratch scratch;
    testing::make_fixture_wheels(scratch, "wheels");
    std::string lock = testing::lock_torch_profile(
        scratch, "torch.lock.json", { "--offline", "--wheelhouse", (scratch / "wheels").string() });
    auto r = run_dlenv({ "build", lock, "--store", (scratch / "store").string(), "--json" });
    CHECK(r.exit_code == 1);
    CHECK(testing::error_of(r)
        == "the lock pins Python packages but no python_runtime, and the base scratch has no python3 in "
           "/usr/local/bin or /usr/bin | add python_runtime to the profile's packages and lock again, or use a base "
           "with python3");
}
