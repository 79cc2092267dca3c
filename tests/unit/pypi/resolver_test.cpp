#include "core/error.h"
#include "pypi/resolver.h"
#include "pypi/wheelhouse.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

using namespace dlenv;
using namespace dlenv::pypi;

namespace {

const std::string k_make_wheels = std::string(DLENV_SOURCE_DIR) + "/tests/fixtures/wheels/make_wheels.py";

// The wheels of tests/fixtures/wheels/make_wheels.py's resolve set, in a wheelhouse.
struct Fixture {
    Scratch scratch;
    std::shared_ptr<WheelhouseIndex> index;

    Fixture()
    {
        scratch.sh("python3 '" + k_make_wheels + "' wheels resolve");
        index = std::make_shared<WheelhouseIndex>(scratch / "wheels");
    }
};

ResolveRequest request(std::vector<std::string> requirements, std::uint32_t glibc_minor = 28)
{
    ResolveRequest r { {}, {}, Target::linux_cpython(PythonVersion::parse("3.11"), "x86_64", 2, glibc_minor) };
    for (const auto& text : requirements)
        r.requirements.push_back(Requirement::parse(text));
    r.requester = "profile pytorch-cu118";
    return r;
}

void pin(ResolveRequest& r, const std::string& project, const std::string& specifiers, const std::string& reason)
{
    r.constraints[project] = Constraint { SpecifierSet::parse(specifiers), reason };
}

// "name version file <- required_by" per package, to compare whole closures at once.
std::vector<std::string> summary(const std::vector<ResolvedPackage>& packages)
{
    std::vector<std::string> out;
    for (const auto& p : packages) {
        std::string line = p.name + " " + p.version.str() + " " + p.file.filename + " <-";
        for (const auto& by : p.required_by)
            line += " " + by;
        out.push_back(line);
    }
    return out;
}

std::string conflict_of(const ResolveRequest& r, const IndexSet& indexes)
{
    try {
        resolve(r, indexes);
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::conflict);
        return e.message();
    }
    return "resolved";
}

} // namespace

TEST_CASE("the closure of torch is pinned with the stack's torch build and cuDNN, extras and markers applied", "[pypi]")
{
    Fixture f;
    auto r = request({ "torch[opt-einsum]", "torchvision" });
    pin(r, "torch", "==2.1.2+cu118", "the stack pins torch 2.1.2+cu118 (profile pytorch-cu118)");
    pin(r, "nvidia-cudnn-cu11", "==8.7.0.*", "the stack pins cuDNN 8.7.0 (profile pytorch-cu118)");
    auto packages = resolve(r, IndexSet(f.index));
    // numpy: 1.26.3rc1 is a pre-release and 2.0.0 needs Python 3.12; of 1.26.2's wheels
    // the manylinux_2_28 one fits glibc 2.28 best. pywin32 is for win32 only.
    CHECK(summary(packages)
        == std::vector<std::string> {
            "filelock 3.13.1 filelock-3.13.1-py3-none-any.whl <- torch triton",
            "numpy 1.26.2 numpy-1.26.2-cp311-cp311-manylinux_2_28_x86_64.whl <- opt-einsum torchvision",
            "nvidia-cublas-cu11 11.11.3.6 nvidia_cublas_cu11-11.11.3.6-py3-none-manylinux1_x86_64.whl <- "
            "nvidia-cudnn-cu11",
            "nvidia-cudnn-cu11 8.7.0.84 nvidia_cudnn_cu11-8.7.0.84-py3-none-manylinux1_x86_64.whl <- torch",
            "nvidia-nccl-cu11 2.18.1 nvidia_nccl_cu11-2.18.1-py3-none-manylinux1_x86_64.whl <- torch",
            "opt-einsum 3.3.0 opt_einsum-3.3.0-py3-none-any.whl <- torch",
            "torch 2.1.2+cu118 torch-2.1.2+cu118-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl <- profile "
            "pytorch-cu118 torchvision",
            "torchvision 0.16.2+cu118 "
            "torchvision-0.16.2+cu118-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl <- profile "
            "pytorch-cu118",
            "triton 2.1.0 triton-2.1.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl <- torch",
            "typing-extensions 4.9.0 typing_extensions-4.9.0-py3-none-any.whl <- torch",
        });
    const ResolvedPackage& torch = packages[6];
    CHECK(torch.extras == std::vector<std::string> { "opt-einsum" });
    CHECK(torch.index == f.index->name());
    CHECK(torch.file.sha256 == f.index->files("torch")[0].sha256);
    CHECK(torch.file.size == f.index->files("torch")[0].size);
}

TEST_CASE("without the stack's pin the newest build the target supports wins", "[pypi]")
{
    Fixture f;
    // 2.2.0+cu118 exists only for aarch64 and for cp312; cu121 sorts above cu118.
    CHECK(summary(resolve(request({ "torch" }), IndexSet(f.index)))
        == std::vector<std::string> {
            "filelock 3.13.1 filelock-3.13.1-py3-none-any.whl <- torch triton",
            "nvidia-cudnn-cu12 8.9.2.26 nvidia_cudnn_cu12-8.9.2.26-py3-none-manylinux1_x86_64.whl <- torch",
            "nvidia-nccl-cu12 2.18.1 nvidia_nccl_cu12-2.18.1-py3-none-manylinux1_x86_64.whl <- torch",
            "torch 2.1.2+cu121 torch-2.1.2+cu121-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl <- profile "
            "pytorch-cu118",
            "triton 2.1.0 triton-2.1.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl <- torch",
            "typing-extensions 4.9.0 typing_extensions-4.9.0-py3-none-any.whl <- torch",
        });
}

TEST_CASE("wheel tags, build tags and pre-releases decide among a release's files", "[pypi]")
{
    Fixture f;
    // On glibc 2.17 the manylinux_2_28 wheel does not fit; of the two builds, 2 wins.
    CHECK(summary(resolve(request({ "numpy" }, 17), IndexSet(f.index)))
        == std::vector<std::string> {
            "numpy 1.26.2 numpy-1.26.2-2-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl <- profile "
            "pytorch-cu118" });
    CHECK(summary(resolve(request({ "numpy>=1.26.3rc1" }), IndexSet(f.index)))
        == std::vector<std::string> {
            "numpy 1.26.3rc1 numpy-1.26.3rc1-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl <- profile "
            "pytorch-cu118" });
    auto pre = request({ "numpy" });
    pre.prereleases = true;
    CHECK(resolve(pre, IndexSet(f.index)).at(0).version.str() == "1.26.3rc1");
}

TEST_CASE("the resolver backtracks when a newer choice leads to a conflict", "[pypi]")
{
    Fixture f;
    // pkg-a 2.0 wants pkg-b<2, which pkg-b>=2 rules out: pkg-a 1.0 is the answer.
    CHECK(summary(resolve(request({ "pkg-a", "pkg-b>=2" }), IndexSet(f.index)))
        == std::vector<std::string> { "pkg-a 1.0 pkg_a-1.0-py3-none-any.whl <- profile pytorch-cu118",
            "pkg-b 2.0 pkg_b-2.0-py3-none-any.whl <- pkg-a profile pytorch-cu118" });
}

TEST_CASE("when nothing works, the error names the chain of requirements that conflict", "[pypi]")
{
    Fixture f;
    auto cudnn = request({ "torchvision" });
    pin(cudnn, "torch", "==2.1.2+cu118", "the stack pins torch 2.1.2+cu118 (profile pytorch-cu118)");
    pin(cudnn, "nvidia-cudnn-cu11", "==8.9.2.*", "the stack pins cuDNN 8.9.2 (profile pytorch-cu118)");
    CHECK(conflict_of(cudnn, IndexSet(f.index))
        == "torchvision 0.16.2+cu118 requires torch==2.1.2; torch 2.1.2+cu118 requires nvidia-cudnn-cu11==8.7.0.84, "
           "but the stack pins cuDNN 8.9.2 (profile pytorch-cu118)");

    CHECK(conflict_of(request({ "pkg-c", "pkg-e" }), IndexSet(f.index))
        == "pkg-e 1.0 requires pkg-d==2.0, but pkg-c 1.0 requires pkg-d==1.0");

    CHECK(conflict_of(request({ "torch==2.2.0" }), IndexSet(f.index))
        == "profile pytorch-cu118 requires torch==2.2.0, but index " + f.index->name()
            + " has only torch 2.1.2+cu121, 2.1.2+cu118 for CPython 3.11 on x86_64 with glibc 2.28");
    // Only 2.0.0 matches, and its metadata asks for Python 3.12.
    CHECK(conflict_of(request({ "numpy>=2" }), IndexSet(f.index))
        == "profile pytorch-cu118 requires numpy>=2, but numpy 2.0.0 requires Python >=3.12 and the target has CPython "
           "3.11 on x86_64 with glibc 2.28");
    CHECK(conflict_of(request({ "tensorflow" }), IndexSet(f.index))
        == "profile pytorch-cu118 requires tensorflow, but index " + f.index->name()
            + " has no wheel of tensorflow for CPython 3.11 on x86_64 with glibc 2.28");
}

TEST_CASE("each project comes from the index assigned to it, never from the first that has it", "[pypi]")
{
    Fixture f;
    f.scratch.sh("mkdir private && cp wheels/pkg_b-1.0-py3-none-any.whl private/");
    auto private_index = std::make_shared<WheelhouseIndex>(f.scratch / "private");
    IndexSet indexes(f.index);
    indexes.assign("PKG_B", private_index);
    auto packages = resolve(request({ "pkg-a" }), indexes);
    REQUIRE(packages.size() == 2);
    CHECK(packages[0].index == f.index->name());
    // The default index has pkg-b 2.0, but pkg-b is assigned to the private one.
    CHECK(packages[1].version.str() == "1.0");
    CHECK(packages[1].index == private_index->name());
    CHECK(packages[1].file.url == "file://" + (f.scratch / "private" / "pkg_b-1.0-py3-none-any.whl").string());

    // A project assigned to an index that lacks it is not looked up elsewhere.
    indexes.assign("pkg-a", private_index);
    CHECK(conflict_of(request({ "pkg-a" }), indexes)
        == "profile pytorch-cu118 requires pkg-a, but index " + private_index->name()
            + " has no wheel of pkg-a for CPython 3.11 on x86_64 with glibc 2.28");
}
