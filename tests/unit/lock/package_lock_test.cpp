#include "core/error.h"
#include "core/sha256.h"
#include "lock/package_lock.h"
#include "lock/package_plan.h"
#include "matrix/matrix.h"
#include "resolve/profile.h"
#include "resolve/stack.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

const std::string k_make_wheels = std::string(DLENV_SOURCE_DIR) + "/tests/fixtures/wheels/make_wheels.py";

// torch 2.1 on CUDA 11.8 for Python 3.11, as the fixture wheels are built.
std::string profile_text(const std::string& packages = "", const std::string& requirements = R"(["numpy<2"])")
{
    return R"({"format": "dlenv.profile/v1", "name": "team", "python": "3.11",
               "framework": {"name": "torch", "version": "2.1", "cuda": "11.8"}, "companions": ["torchvision"],
               "base_image": "nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04", "requirements": )"
        + requirements + (packages.empty() ? "" : ", \"packages\": " + packages) + "}";
}

struct Planned {
    resolve::Profile profile;
    resolve::Stack stack;
};

Planned plan(const std::string& text)
{
    resolve::Profile profile = resolve::Profile::parse("team.json", text);
    auto resolution = resolve::resolve_profile(matrix::Matrix::embedded(), profile, {});
    REQUIRE(resolution.stack);
    return { profile, *resolution.stack };
}

// "name version index <- required_by" per package.
std::vector<std::string> summary(const std::vector<lock::LockedPackage>& packages)
{
    std::vector<std::string> out;
    for (const auto& p : packages) {
        std::string line = p.name + " " + p.version + " " + p.index + " <-";
        for (const auto& by : p.required_by)
            line += " " + by;
        out.push_back(line);
    }
    return out;
}

std::string error_of(const std::function<void()>& call)
{
    try {
        call();
    } catch (const Error& e) {
        return e.message() + " | " + e.hint();
    }
    return "no error";
}

} // namespace

TEST_CASE("a torch stack takes its builds and NVIDIA's wheels from the PyTorch index of its variant", "[lock]")
{
    Planned p = plan(profile_text());
    lock::PackageSources sources = lock::package_sources(p.profile, p.stack);
    CHECK(sources.indexes
        == std::map<std::string, std::string> {
            { "pypi", "https://pypi.org/simple/" }, { "pytorch", "https://download.pytorch.org/whl/cu118/" } });
    CHECK(sources.index_of
        == std::map<std::string, std::string> { { "nvidia-*", "pytorch" }, { "torch", "pytorch" },
            { "torchaudio", "pytorch" }, { "torchvision", "pytorch" }, { "triton", "pytorch" } });
    CHECK(sources.default_index == "pypi");

    SECTION("a profile replaces an index and assigns a project to its own")
    {
        Planned mirrored = plan(profile_text(R"({"indexes": {"pypi": "https://mirror.example/simple/",
                                                             "team": "https://pkgs.example/simple/"},
                                                 "index_of": {"team-utils": "team", "numpy": "team"}})"));
        lock::PackageSources changed = lock::package_sources(mirrored.profile, mirrored.stack);
        CHECK(changed.indexes.at("pypi") == "https://mirror.example/simple/");
        CHECK(changed.index_of.at("numpy") == "team");
        CHECK(changed.index_of.at("torch") == "pytorch");
    }
    SECTION("an assignment to an index that is not there names the profile's field")
    {
        Planned wrong = plan(profile_text(R"({"index_of": {"team-utils": "team"}})"));
        CHECK(error_of([&] { lock::package_sources(wrong.profile, wrong.stack); })
            == "team.json: packages.index_of.team-utils: no index named 'team' | the indexes are pypi, pytorch; add "
               "'team' to packages.indexes");
    }
}

TEST_CASE("the request pins the stack's builds and holds NVIDIA's wheels to its cuDNN", "[lock]")
{
    Planned p = plan(profile_text());
    pypi::ResolveRequest request = lock::package_request(p.profile, p.stack);
    std::vector<std::string> requirements;
    for (const auto& r : request.requirements)
        requirements.push_back(r.str());
    CHECK(requirements == std::vector<std::string> { "torch==2.1.2+cu118", "torchvision==0.16.2+cu118", "numpy<2" });
    REQUIRE(request.constraints.size() == 1);
    CHECK(request.constraints.at("nvidia-cudnn-cu11").specifiers.str() == "==8.7.0.84.*");
    CHECK(request.constraints.at("nvidia-cudnn-cu11").reason == "the stack pins cuDNN 8.7.0.84 (profile team)");
    CHECK(request.requester == "profile team");
    CHECK(request.target.python.text() == "3.11");
    CHECK(request.target.glibc_minor == 28);
}

TEST_CASE("the closure is locked from the index each project is assigned to", "[lock]")
{
    Scratch scratch;
    // The PyTorch index holds the CUDA builds and a filelock that must not be taken from
    // it: filelock belongs to the default index.
    scratch.sh("python3 '" + k_make_wheels
        + "' all resolve\nmkdir pytorch pypi\n"
          "mv all/torch* all/nvidia* all/triton* pytorch/\nmv all/* pypi/\n"
          "python3 - <<'EOF'\nimport sys\nsys.path.insert(0, '"
        + std::string(DLENV_SOURCE_DIR)
        + "/tests/fixtures/wheels')\nfrom make_wheels import wheel\nwheel('pytorch', 'filelock', '99.0', "
          "'py3-none-any')\nEOF");
    Planned p = plan(profile_text());
    lock::PackageSources sources = lock::package_sources(p.profile, p.stack);
    sources.indexes = { { "pypi", "file://" + (scratch / "pypi").string() },
        { "pytorch", "file://" + (scratch / "pytorch").string() } };
    auto packages = lock::lock_packages(lock::package_request(p.profile, p.stack), sources);
    CHECK(summary(packages)
        == std::vector<std::string> {
            "filelock 3.13.1 pypi <- torch triton",
            "numpy 1.26.2 pypi <- profile team torchvision",
            "nvidia-cublas-cu11 11.11.3.6 pytorch <- nvidia-cudnn-cu11",
            "nvidia-cudnn-cu11 8.7.0.84 pytorch <- torch",
            "nvidia-nccl-cu11 2.18.1 pytorch <- torch",
            "torch 2.1.2+cu118 pytorch <- profile team torchvision",
            "torchvision 0.16.2+cu118 pytorch <- profile team",
            "triton 2.1.0 pytorch <- torch",
            "typing-extensions 4.9.0 pypi <- torch",
        });
    const lock::LockedPackage& torch = packages[5];
    CHECK(torch.filename == "torch-2.1.2+cu118-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl");
    CHECK(torch.url == "file://" + (scratch / "pytorch" / torch.filename).string());
    CHECK(torch.sha256 == sha256_file_hex(scratch / "pytorch" / torch.filename));
    CHECK(torch.size == static_cast<std::int64_t>(std::filesystem::file_size(scratch / "pytorch" / torch.filename)));

    SECTION("a wheel that wants another cuDNN than the stack is a conflict naming both")
    {
        Planned older = plan(profile_text("", R"(["nvidia-cudnn-cu11==8.9.2.26"])"));
        CHECK(error_of([&] { lock::lock_packages(lock::package_request(older.profile, older.stack), sources); })
                  .starts_with("profile team requires nvidia-cudnn-cu11==8.9.2.26, but the stack pins cuDNN 8.7.0.84 "
                               "(profile team)"));
    }
}

TEST_CASE("a wheelhouse serves every project under one name", "[lock]")
{
    lock::PackageSources sources = lock::wheelhouse_sources("/srv/wheels/./cu118");
    CHECK(sources.indexes == std::map<std::string, std::string> { { "wheelhouse", "file:///srv/wheels/cu118" } });
    CHECK(sources.index_of.empty());
    CHECK(sources.default_index == "wheelhouse");
}
