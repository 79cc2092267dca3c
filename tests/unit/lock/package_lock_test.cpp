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

namespace {

std::string framework_profile(const std::string& framework, const std::string& python = "3.11")
{
    return R"({"format": "dlenv.profile/v1", "name": "team", "python": ")" + python + R"(", "framework": )" + framework
        + R"(, "base_image": "nvidia/cuda:12.1.1-base-ubuntu22.04", "requirements": []})";
}

std::string first_requirement(const Planned& p)
{
    return lock::package_request(p.profile, p.stack).requirements.front().str();
}

} // namespace

TEST_CASE("a jax stack locks jax[cuda12]: jaxlib, the CUDA plugin, its with_cuda extra and NVIDIA's wheels", "[lock]")
{
    Scratch scratch;
    scratch.sh("python3 '" + k_make_wheels + "' pypi jax");
    Planned p = plan(framework_profile(R"({"name": "jax", "version": "0.4.31", "cuda": "12.1"})"));
    CHECK(p.stack.framework_extra == "cuda12");
    pypi::ResolveRequest request = lock::package_request(p.profile, p.stack);
    CHECK(request.requirements.front().str() == "jax[cuda12]==0.4.31");
    lock::PackageSources sources = lock::package_sources(p.profile, p.stack);
    sources.indexes = { { "pypi", "file://" + (scratch / "pypi").string() } };
    CHECK(summary(lock::lock_packages(request, sources))
        == std::vector<std::string> {
            "jax 0.4.31 pypi <- profile team",
            "jax-cuda12-pjrt 0.4.31 pypi <- jax-cuda12-plugin",
            "jax-cuda12-plugin 0.4.31 pypi <- jax",
            "jaxlib 0.4.31 pypi <- jax",
            "ml-dtypes 0.4.0 pypi <- jax jaxlib",
            "numpy 1.26.2 pypi <- jax jaxlib ml-dtypes opt-einsum scipy",
            "nvidia-cublas-cu12 12.1.3.1 pypi <- jax-cuda12-plugin nvidia-cudnn-cu12",
            "nvidia-cuda-runtime-cu12 12.1.105 pypi <- jax-cuda12-plugin",
            "nvidia-cudnn-cu12 9.1.0.70 pypi <- jax-cuda12-plugin",
            "nvidia-nccl-cu12 2.18.1 pypi <- jax-cuda12-plugin",
            "opt-einsum 3.3.0 pypi <- jax",
            "scipy 1.11.4 pypi <- jax jaxlib",
        });
}

TEST_CASE("torch and jax in one profile lock both frameworks, one cuDNN and one NCCL wheel serving both", "[lock]")
{
    Scratch scratch;
    scratch.sh("python3 '" + k_make_wheels + "' index torch-jax");
    Planned p = plan(R"({"format": "dlenv.profile/v1", "name": "team", "python": "3.11",
                         "framework": {"name": "torch", "version": "2.4", "cuda": "12.1"},
                         "also": [{"name": "jax", "version": "0.4.31"}],
                         "base_image": "nvidia/cuda:12.1.1-base-ubuntu22.04"})");
    pypi::ResolveRequest request = lock::package_request(p.profile, p.stack);
    REQUIRE(request.requirements.size() == 2);
    CHECK(request.requirements[0].str() == "torch==2.4.1+cu121");
    CHECK(request.requirements[1].str() == "jax[cuda12]==0.4.31");
    lock::PackageSources sources = lock::package_sources(p.profile, p.stack);
    std::string index = "file://" + (scratch / "index").string();
    sources.indexes = { { "pypi", index }, { "pytorch", index } };
    CHECK(summary(lock::lock_packages(request, sources))
        == std::vector<std::string> {
            "filelock 3.13.1 pypi <- torch triton",
            "jax 0.4.31 pypi <- profile team",
            "jax-cuda12-pjrt 0.4.31 pypi <- jax-cuda12-plugin",
            "jax-cuda12-plugin 0.4.31 pypi <- jax",
            "jaxlib 0.4.31 pypi <- jax",
            "ml-dtypes 0.4.0 pypi <- jax jaxlib",
            "numpy 1.26.2 pypi <- jax jaxlib ml-dtypes opt-einsum scipy",
            "nvidia-cublas-cu12 12.1.3.1 pytorch <- jax-cuda12-plugin nvidia-cudnn-cu12 torch",
            "nvidia-cuda-runtime-cu12 12.1.105 pytorch <- jax-cuda12-plugin torch",
            "nvidia-cudnn-cu12 9.1.0.70 pytorch <- jax-cuda12-plugin torch",
            "nvidia-nccl-cu12 2.20.5 pytorch <- jax-cuda12-plugin torch",
            "opt-einsum 3.3.0 pypi <- jax",
            "scipy 1.11.4 pypi <- jax jaxlib",
            "torch 2.4.1+cu121 pytorch <- profile team",
            "triton 3.0.0 pytorch <- torch",
            "typing-extensions 4.9.0 pypi <- torch",
        });
}

TEST_CASE("a profile names the framework's pip extra, held to those its build has", "[lock]")
{
    CHECK(
        first_requirement(plan(framework_profile(R"({"name": "tensorflow", "version": "2.15", "extra": "and-cuda"})")))
        == "tensorflow[and-cuda]==2.15.1");
    CHECK(first_requirement(plan(framework_profile(R"({"name": "tensorflow", "version": "2.15"})")))
        == "tensorflow==2.15.1");
    CHECK(first_requirement(plan(framework_profile(R"({"name": "jax", "version": "0.4.31", "extra": "cuda12_local"})")))
        == "jax[cuda12-local]==0.4.31");
    CHECK(first_requirement(plan(framework_profile(R"({"name": "jax", "version": "0.6", "extra": "cuda12-local"})")))
        == "jax[cuda12-local]==0.6.2");
    // another name of a build's extra locks as the build's own
    CHECK(first_requirement(plan(framework_profile(R"({"name": "jax", "version": "0.4.31", "extra": "cuda"})")))
        == "jax[cuda12]==0.4.31");

    auto refused = [](const std::string& framework) {
        return error_of([&] {
            resolve::Profile profile = resolve::Profile::parse("team.json", framework_profile(framework));
            resolve::resolve_profile(matrix::Matrix::embedded(), profile, {});
        });
    };
    CHECK(refused(R"({"name": "tensorflow", "version": "2.13", "extra": "and-cuda"})")
        == "team.json: framework.extra: tensorflow 2.13 has no extra 'and-cuda' | drop framework.extra: tensorflow "
           "2.13 has no pip extra that brings CUDA");
    CHECK(refused(R"({"name": "jax", "version": "0.4.20"})")
        == "team.json: framework: jax 0.4.20 cuda12_pip installs its CUDA jaxlib from JAX's own wheel page "
           "(https://storage.googleapis.com/jax-releases/jax_cuda_releases.html), not from PyPI, where dlenv locks "
           "packages | lock jax 0.4.26 or newer, whose CUDA builds are on PyPI; `dlenv check` still judges this "
           "release");
    // jax[cuda12]'s plugin before 0.4.26 is served by the same page (jax#19430)
    CHECK(refused(R"({"name": "jax", "version": "0.4.23", "extra": "cuda12"})")
        == "team.json: framework: jax 0.4.23 cuda12 installs jax-cuda12-plugin from JAX's own wheel page "
           "(https://storage.googleapis.com/jax-releases/jax_cuda_releases.html), not from PyPI, where dlenv locks "
           "packages | lock jax 0.4.26 or newer, whose CUDA builds are on PyPI; `dlenv check` still judges this "
           "release");
    CHECK(refused(R"({"name": "jax", "version": "0.4.31", "extra": "cuda11"})")
        == "team.json: framework.extra: jax 0.4.31 has no extra 'cuda11' | its extras: cuda12 and cuda12_local");
    // the profile's CUDA is the image's, which a build bringing CUDA 12 from pip does not share
    CHECK(refused(R"({"name": "jax", "version": "0.4.31", "cuda": "11.8", "extra": "cuda12"})")
        == "team.json: framework.cuda: jax[cuda12]==0.4.31 is JAX's CUDA 12.1-12.99 build, not one for CUDA 11.8 | "
           "set the CUDA to 12.1-12.99, or drop the extra");
    CHECK(refused(R"({"name": "torch", "version": "2.1", "cuda": "11.8", "extra": "cuda12"})")
        == "team.json: framework.extra: torch 2.1 has no extra 'cuda12' | drop framework.extra: torch 2.1 "
           "has no pip extra that brings CUDA");
}
