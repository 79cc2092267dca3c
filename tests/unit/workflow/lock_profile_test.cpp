#include "core/error.h"
#include "core/file.h"
#include "matrix/matrix.h"
#include "resolve/profile.h"
#include "support/closed_port.h"
#include "support/run_dlenv.h"
#include "support/scratch.h"
#include "workflow/lock_profile.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace dlenv;
using dlenv::testing::run_dlenv;

namespace {

const std::string k_make_wheels = std::string(DLENV_SOURCE_DIR) + "/tests/fixtures/wheels/make_wheels.py";

// torch 2.1 on CUDA 11.8 for Python 3.11, as the fixture wheels are built, based on `base`.
std::string team_profile(const Scratch& scratch, const std::string& base)
{
    std::string path = (scratch / "team.json").string();
    write_file_atomic(path,
        R"({"format": "dlenv.profile/v1", "name": "team", "python": "3.11",
        "framework": {"name": "torch", "version": "2.1", "cuda": "11.8"}, "companions": ["torchvision"],
        "base_image": ")"
            + base + R"(", "requirements": ["numpy<2"]})");
    return path;
}

workflow::LockRequest offline_request(const std::string& profile, const std::string& output)
{
    workflow::LockRequest request;
    request.profile = resolve::load_profile(profile);
    request.output = output;
    request.offline = true;
    return request;
}

} // namespace

TEST_CASE("lock_profile offline writes the bytes `dlenv lock --offline` writes for a shipped profile", "[workflow]")
{
    Scratch scratch;
    std::string output = (scratch / "pytorch-2.1-cu118.lock.json").string();
    workflow::LockResult result
        = workflow::lock_profile(matrix::Matrix::embedded(), offline_request("pytorch-2.1-cu118", output));
    REQUIRE(result.lockfile);
    CHECK(result.path == output);
    CHECK_FALSE(result.lockfile->packages());
    CHECK_FALSE(result.lockfile->base_image().manifest);
    std::string committed = read_file(std::string(DLENV_SOURCE_DIR) + "/lockfiles/pytorch-2.1-cu118.lock.json");
    CHECK(read_file(output) == committed);
    CHECK(result.lockfile->text() == committed);

    std::string by_cli = (scratch / "by-cli.lock.json").string();
    REQUIRE(run_dlenv({ "lock", "pytorch-2.1-cu118", "-o", by_cli, "--offline" }).exit_code == 0);
    CHECK(read_file(by_cli) == read_file(output));
}

TEST_CASE("lock_profile of a profile that cannot work returns the report and writes nothing", "[workflow]")
{
    Scratch scratch;
    write_file_atomic(scratch / "old.json", R"({"format": "dlenv.profile/v1", "name": "h100-old-torch",
        "framework": {"name": "torch", "version": "1.12", "cuda": "11.6"}, "python": "3.10",
        "gpus": ["H100 SXM5"], "base_image": "nvidia/cuda:11.6.2-runtime-ubuntu20.04"})");
    std::string output = (scratch / "old.lock.json").string();
    workflow::LockResult result
        = workflow::lock_profile(matrix::Matrix::embedded(), offline_request((scratch / "old.json").string(), output));
    CHECK_FALSE(result.lockfile);
    CHECK_FALSE(result.resolution.stack);
    CHECK(result.resolution.report.verdict() == Verdict::fail);
    CHECK(result.path.empty());
    CHECK_FALSE(std::filesystem::exists(output));
}

TEST_CASE(
    "lock_profile refuses a stack whose image the container toolkit would refuse on the fleet's driver", "[workflow]")
{
    // R450 runs CUDA 11.8 under minor-version compatibility, but NVIDIA's 11.8 images admit
    // only R470 below their cuda>=11.8
    Scratch scratch;
    write_file_atomic(scratch / "r450.json", R"({"format": "dlenv.profile/v1", "name": "r450-fleet",
        "framework": {"name": "torch", "version": "2.1", "cuda": "11.8"}, "python": "3.10",
        "gpus": ["A100 80GB SXM4"], "driver_floor": "450.80.02",
        "base_image": "nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04"})");
    std::string output = (scratch / "r450.lock.json").string();
    workflow::LockResult result
        = workflow::lock_profile(matrix::Matrix::embedded(), offline_request((scratch / "r450.json").string(), output));
    CHECK_FALSE(result.lockfile);
    CHECK(result.resolution.report.verdict() == Verdict::fail);
    const Finding* gate = nullptr;
    for (const auto& f : result.resolution.report.findings)
        if (f.code == "image-require-cuda")
            gate = &f;
    REQUIRE(gate);
    CHECK(gate->verdict == Verdict::fail);
    CHECK(gate->message.starts_with("the image dlenv builds for CUDA 11.8 will not start on driver 450.80.02 under "
                                    "the NVIDIA container toolkit: its NVIDIA_REQUIRE_CUDA (NVIDIA's, of its CUDA "
                                    "11.8.0 images for amd64) refuses it for tesla GPUs: "));
    CHECK_FALSE(std::filesystem::exists(output));

    auto by_cli = run_dlenv({ "lock", (scratch / "r450.json").string(), "-o", output, "--offline" });
    CHECK(by_cli.exit_code == 1);
    CHECK_THAT(by_cli.out,
        Catch::Matchers::Contains("image-require-cuda: the image dlenv builds for CUDA 11.8 will not start"));
    CHECK_FALSE(std::filesystem::exists(output));
}

TEST_CASE("lock_profile with a wheelhouse pins the closure as the cli does, reporting each read", "[workflow]")
{
    Scratch scratch;
    scratch.sh("python3 '" + k_make_wheels + "' wheels resolve");
    std::string profile = team_profile(scratch, "nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04");
    std::string output = (scratch / "team.lock.json").string();
    workflow::LockRequest request = offline_request(profile, output);
    request.sources.wheelhouse = scratch / "wheels";
    request.sources.indexes = { "not an index option" }; // not read beside a wheelhouse
    std::vector<std::string> read;
    int finished = 0;
    request.progress = { [&read](const std::string& what) { read.push_back(what); }, [&finished] { ++finished; } };
    workflow::LockResult result = workflow::lock_profile(matrix::Matrix::embedded(), request);

    REQUIRE(result.lockfile);
    std::optional<std::vector<lock::LockedPackage>> packages = result.lockfile->packages();
    REQUIRE(packages);
    CHECK_FALSE(packages->empty());
    for (const auto& package : *packages)
        CHECK(package.index == "wheelhouse");
    CHECK(finished == 1);
    REQUIRE_FALSE(read.empty());
    CHECK(read.front() == "torch from wheelhouse");

    std::string by_cli = (scratch / "by-cli.lock.json").string();
    REQUIRE(run_dlenv({ "lock", profile, "-o", by_cli, "--offline", "--wheelhouse", (scratch / "wheels").string() })
                .exit_code
        == 0);
    CHECK(read_file(by_cli) == read_file(output));
}

TEST_CASE("lock_profile that cannot reach the base's registry says to lock --offline and writes nothing", "[workflow]")
{
    Scratch scratch;
    std::string registry = "127.0.0.1:" + std::to_string(dlenv::testing::closed_port());
    std::string base = registry + "/team/base:v1";
    workflow::LockRequest request;
    request.profile = resolve::load_profile(team_profile(scratch, base));
    request.output = (scratch / "team.lock.json").string();
    request.insecure = true;
    try {
        workflow::lock_profile(matrix::Matrix::embedded(), request);
        FAIL("locked without the registry");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::network);
        CHECK(std::string(e.what())
            == "pin base image " + base + ": reach registry " + registry + ": GET https://" + registry
                + "/v2/: connection refused");
        CHECK(e.hint()
            == "nothing accepts connections at " + registry
                + ": check that the registry is running and "
                  "that the image reference names its host and port; or pass --offline to lock without pinning the "
                  "base image");
    }
    CHECK_FALSE(std::filesystem::exists(scratch / "team.lock.json"));
}
