#include "core/error.h"
#include "core/file.h"
#include "matrix/matrix.h"
#include "resolve/profile.h"
#include "support/closed_port.h"
#include "support/local_registry.h"
#include "support/run_dlenv.h"
#include "support/scratch.h"
#include "workflow/lock_profile.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace dlenv;
using dlenv::testing::run_dlenv;

namespace {

const std::string k_make_wheels = std::string(DLENV_SOURCE_DIR) + "/tests/fixtures/wheels/make_wheels.py";
const std::string k_make_base = std::string(DLENV_SOURCE_DIR) + "/tests/fixtures/nvidia_cuda/make_base.py";
const std::string k_cuda_118 = "nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04";

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

// A replica of nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04 (its config's Env and
// Labels, stub libraries) pushed to `registry` as each of `names` (REPOSITORY:TAG).
void push_cuda_118(
    const dlenv::testing::LocalRegistry& registry, const Scratch& scratch, const std::vector<std::string>& names)
{
    std::string tag = "11.8.0-cudnn8-runtime-ubuntu22.04";
    std::string script = "python3 '" + k_make_base
        + "' --cuda 11.8.0 --os ubuntu22.04 --flavour cudnn8-runtime --out base --tag " + tag + " >/dev/null";
    for (const auto& name : names)
        script += " && skopeo copy -q oci:base:" + tag + " docker://" + registry.host + "/" + name
            + " --dest-tls-verify=false";
    scratch.sh(script);
}

// torch 2.1 on CUDA `cuda` for Python 3.11, nothing else asked, based on `base`.
std::string torch_profile(const Scratch& scratch, const std::string& cuda, const std::string& base)
{
    std::string path = (scratch / ("torch-" + cuda + ".json")).string();
    write_file_atomic(path,
        R"({"format": "dlenv.profile/v1", "name": "team", "python": "3.11",
        "framework": {"name": "torch", "version": "2.1", "cuda": ")"
            + cuda + R"("}, "base_image": ")" + base + R"("})");
    return path;
}

// A request that pins the base in its plain-HTTP registry and the packages from `wheels`.
workflow::LockRequest pinning_request(const std::string& profile, const std::string& output, const Scratch& wheels)
{
    workflow::LockRequest request;
    request.profile = resolve::load_profile(profile);
    request.output = output;
    request.insecure = true;
    request.sources.wheelhouse = wheels / "wheels";
    return request;
}

const Finding* finding(const resolve::Report& report, const std::string& code)
{
    for (const auto& f : report.findings)
        if (f.code == code)
            return &f;
    return nullptr;
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

TEST_CASE(
    "lock_profile checks a driver given as its branch against the branch's newest release, and says so", "[workflow]")
{
    Scratch scratch;
    workflow::LockRequest request
        = offline_request("pytorch-2.1-cu118", (scratch / "pytorch-2.1-cu118.lock.json").string());
    request.host.driver_branch = 535;
    workflow::LockResult result = workflow::lock_profile(matrix::Matrix::embedded(), request);
    REQUIRE(result.lockfile);
    CHECK(result.resolution.report.findings.front().code == "driver-branch");
    CHECK(finding(result.resolution.report, "driver-branch")->message
        == "driver 535 is read as 535.309.01, the newest 535 release on record (what a distribution's "
           "nvidia-driver-535 package installs): give the release nvidia-smi shows for an answer about it");
    CHECK(run_dlenv({ "lock", "pytorch-2.1-cu118", "-o", (scratch / "cli.lock.json").string(), "--offline", "--driver",
                        "535" })
              .exit_code
        == 0);
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

TEST_CASE(
    "lock_profile records what the pinned base's config says it carries, read alike under another name", "[workflow]")
{
    dlenv::testing::LocalRegistry registry;
    Scratch scratch;
    scratch.sh("python3 '" + k_make_wheels + "' wheels resolve");
    push_cuda_118(registry, scratch, { k_cuda_118, "team/cuda:11.8" });

    for (const std::string& base : { registry.host + "/" + k_cuda_118, registry.host + "/team/cuda:11.8" }) {
        INFO(base);
        std::string output = (scratch / "team.lock.json").string();
        workflow::LockResult result = workflow::lock_profile(
            matrix::Matrix::embedded(), pinning_request(torch_profile(scratch, "11.8", base), output, scratch));
        REQUIRE(result.lockfile);
        CHECK(result.path == output);
        nlohmann::json written = nlohmann::json::parse(read_file(output));
        CHECK(written.at("base_image").at("carries")
            == nlohmann::json::parse(R"({"cuda": {"version": "11.8.0", "origin": "env CUDA_VERSION"},
                "cudnn": {"version": "8.9.6.50", "origin": "env NV_CUDNN_VERSION"},
                "nccl": {"version": "2.15.5", "origin": "env NV_LIBNCCL_PACKAGE_VERSION"}, "python": null})"));
        const Finding* cuda = finding(result.resolution.report, "base-cuda");
        REQUIRE(cuda);
        CHECK(cuda->verdict == Verdict::ok);
        CHECK(cuda->message
            == "the base carries CUDA 11.8.0 (env CUDA_VERSION), an update of the CUDA 11.8 line torch is built with");
        const Finding* cudnn = finding(result.resolution.report, "base-cudnn");
        REQUIRE(cudnn);
        CHECK(cudnn->verdict == Verdict::ok);
        CHECK(cudnn->message
            == "torch loads cuDNN 8.7.0.84 from the nvidia-cudnn-cu11 wheel; the base's cuDNN 8.9.6.50 is not the "
               "one it loads");
        CHECK(result.lockfile->warnings().empty());
    }
}

TEST_CASE("lock_profile refuses a framework that cannot load the pinned base's CUDA and writes nothing", "[workflow]")
{
    dlenv::testing::LocalRegistry registry;
    Scratch scratch;
    scratch.sh("python3 '" + k_make_wheels + "' wheels resolve");
    push_cuda_118(registry, scratch, { k_cuda_118 });
    std::string profile = torch_profile(scratch, "12.1", registry.host + "/" + k_cuda_118);
    std::string output = (scratch / "team.lock.json").string();

    workflow::LockResult result
        = workflow::lock_profile(matrix::Matrix::embedded(), pinning_request(profile, output, scratch));
    CHECK_FALSE(result.lockfile);
    CHECK(result.path.empty());
    CHECK(result.resolution.report.verdict() == Verdict::fail);
    const Finding* cuda = finding(result.resolution.report, "base-cuda");
    REQUIRE(cuda);
    CHECK(cuda->verdict == Verdict::fail);
    CHECK(cuda->message
        == "torch is built with CUDA 12.1 and loads the base's CUDA libraries, but the base carries CUDA 11.8.0 (env "
           "CUDA_VERSION): their sonames carry the major (libcudart.so.12), so a CUDA 12 build cannot load them; use "
           "a CUDA 12.1 base");
    CHECK_FALSE(cuda->why.empty());
    CHECK_FALSE(std::filesystem::exists(output));

    auto by_cli
        = run_dlenv({ "lock", profile, "-o", output, "--insecure", "--wheelhouse", (scratch / "wheels").string() });
    CHECK(by_cli.exit_code == 1);
    CHECK_THAT(by_cli.out,
        Catch::Matchers::Contains("error    base-cuda: " + cuda->message + "\n           source: " + cuda->why + "\n"));
    CHECK_FALSE(std::filesystem::exists(output));
}

TEST_CASE("lock_profile records the pinned base's warnings as the lock's", "[workflow]")
{
    // torch 2.1.2+cu121 brings its CUDA runtime in nvidia-cuda-runtime-cu12 12.1.105, as
    // its wheels on PyPI require, so an 11.8 base is only a warning
    dlenv::testing::LocalRegistry registry;
    Scratch scratch;
    scratch.sh("mkdir wheels && python3 -c \"import sys; sys.path.insert(0, sys.argv[1]); import make_wheels as m; "
               "m.wheel('wheels', 'torch', '2.1.2+cu121', 'cp311-cp311-' + m.MANYLINUX, "
               "requires=['nvidia-cuda-runtime-cu12==12.1.105', 'nvidia-cudnn-cu12==8.9.2.26']); "
               "m.wheel('wheels', 'nvidia-cuda-runtime-cu12', '12.1.105', 'py3-none-manylinux1_x86_64'); "
               "m.wheel('wheels', 'nvidia-cudnn-cu12', '8.9.2.26', 'py3-none-manylinux1_x86_64')\" '"
        + std::filesystem::path(k_make_wheels).parent_path().string() + "'");
    push_cuda_118(registry, scratch, { k_cuda_118 });
    std::string output = (scratch / "team.lock.json").string();
    workflow::LockResult result = workflow::lock_profile(matrix::Matrix::embedded(),
        pinning_request(torch_profile(scratch, "12.1", registry.host + "/" + k_cuda_118), output, scratch));

    REQUIRE(result.lockfile);
    const Finding* cuda = finding(result.resolution.report, "base-cuda");
    REQUIRE(cuda);
    CHECK(cuda->verdict == Verdict::warn);
    CHECK(cuda->message
        == "torch loads its CUDA 12.1 runtime from the nvidia-cuda-runtime-cu12 wheel; the base carries CUDA 11.8.0 "
           "(env CUDA_VERSION), which it does not load");
    // The base's NCCL 2.15.5 is older than the 2.18.1 torch is built with: the last warning.
    const auto& warnings = result.lockfile->warnings();
    REQUIRE(warnings.size() >= 2);
    const lock::LockedWarning& recorded = warnings[warnings.size() - 2];
    CHECK(recorded.code == "base-cuda");
    CHECK(recorded.message == cuda->message);
    CHECK(recorded.source == cuda->why);
    CHECK(warnings.back().code == "base-nccl");
    auto written = lock::Lockfile::parse(output, read_file(output)).warnings();
    CHECK(written[written.size() - 2].message == cuda->message);
}
