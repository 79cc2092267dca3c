#include "core/error.h"
#include "matrix/matrix.h"
#include "resolve/profile.h"
#include "resolve/stack.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

// torch on `cuda` (none: PyPI's default build) with the frameworks of `also`, for Python 3.11.
std::string profile_text(const std::string& torch, const std::string& cuda, const std::string& also)
{
    return R"({"format": "dlenv.profile/v1", "name": "team", "python": "3.11",
               "framework": {"name": "torch", "version": ")"
        + torch + "\"" + (cuda.empty() ? "" : R"(, "cuda": ")" + cuda + "\"") + R"(}, "also": )" + also
        + R"(, "base_image": "nvidia/cuda:12.1.1-base-ubuntu22.04"})";
}

resolve::Resolution resolve_text(const std::string& text)
{
    return resolve::resolve_profile(matrix::Matrix::embedded(), resolve::Profile::parse("team.json", text), {});
}

std::string error_of(const std::string& text)
{
    try {
        resolve_text(text);
    } catch (const Error& e) {
        return std::string(dlenv::to_string(e.code())) + ": " + e.message() + " | " + e.hint();
    }
    return "no error";
}

} // namespace

TEST_CASE("a profile names the frameworks installed beside its own under also", "[resolve][profile]")
{
    auto p = resolve::Profile::parse(
        "team.json", profile_text("2.4", "12.1", R"([{"name": "jax", "version": "0.4.31", "extra": "cuda12"}])"));
    REQUIRE(p.also.size() == 1);
    CHECK(p.also[0].text() == "jax[cuda12]==0.4.31");
    CHECK(p.also[0].extra == "cuda12");
    CHECK(resolve::Profile::parse("team.json", profile_text("2.4", "12.1", "[]")).also.empty());
}

TEST_CASE("a profile's also is refused naming the item and what is wrong", "[resolve][profile]")
{
    struct Case {
        std::string also, message, hint;
    };
    auto c = GENERATE(Case { R"([{"name": "torch", "version": "2.4"}])",
                          "team.json: also[0].name: one environment holds one torch", "name each framework once" },
        Case { R"([{"name": "jax", "version": "0.4.31"}, {"name": "jax", "version": "0.4.30"}])",
            "team.json: also[1].name: one environment holds one jax", "name each framework once" },
        Case {
            R"([{"name": "jax", "version": "0.4.31", "cuda": "12.1"}])", "team.json: also[0].cuda: unknown field", "" },
        Case { R"([{"name": "jax[cuda12]", "version": "0.4.31"}])",
            "team.json: also[0].name: the extra goes in its own field", R"(write "name": "jax", "extra": "cuda12")" },
        Case { R"([{"name": "torchvision", "version": "0.19"}])",
            "team.json: also[0].name: a companion cannot be the framework",
            "name torch and list it under companions" });
    try {
        resolve::Profile::parse("team.json", profile_text("2.4", "12.1", c.also));
        FAIL("parsed");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(e.message() == c.message);
        if (!c.hint.empty())
            CHECK(e.hint() == c.hint);
    }
}

TEST_CASE(
    "torch is the profile's framework, never one of also, so that its companions go with it", "[resolve][profile]")
{
    try {
        resolve::Profile::parse("team.json", R"({"format": "dlenv.profile/v1", "name": "team", "python": "3.11",
            "framework": {"name": "jax", "version": "0.4.31"}, "also": [{"name": "torch", "version": "2.4"}],
            "base_image": "nvidia/cuda:12.1.1-base-ubuntu22.04"})");
        FAIL("parsed");
    } catch (const Error& e) {
        CHECK(e.message() == "team.json: also[0].name: torch goes in framework, with its companions");
        CHECK(e.hint() == "name torch as the framework and list jax under also");
    }
}

TEST_CASE("torch 2.4 cu121 and jax 0.4.31 share cuDNN 9.1.0.70 and NCCL 2.20.5: both are pinned", "[resolve][coexist]")
{
    auto resolution
        = resolve_text(profile_text("2.4", "12.1", R"([{"name": "jax", "version": "0.4.31", "extra": "cuda12"}])"));
    REQUIRE(resolution.stack);
    const resolve::Stack& stack = *resolution.stack;
    CHECK(stack.framework.version.str() == "2.4.1+cu121");
    CHECK(stack.cudnn == "9.1.0.70");
    CHECK(stack.nccl == "2.20.5");
    REQUIRE(stack.also.size() == 1);
    CHECK(stack.also[0].framework.name == "jax");
    CHECK(stack.also[0].framework.version.str() == "0.4.31");
    CHECK(stack.also[0].extra == "cuda12");
    CHECK(stack.also[0].variant == "cuda12");
    CHECK(stack.also[0].min_compute_capability == ComputeCapability(5, 2));
    CHECK_FALSE(stack.min_compute_capability); // torch's GPU code is its arch list
    CHECK(stack.unconfirmed
        == std::vector<std::string> { "the GPU code of jax 0.4.31 cuda12: its arch list is not on record" });
}

TEST_CASE("a GPU torch has code for and JAX beside it does not stops the lock, naming JAX", "[resolve][coexist]")
{
    std::string text = profile_text("2.4", "12.1", R"([{"name": "jax", "version": "0.4.31"}])");
    text.insert(text.size() - 1, R"(, "gpus": ["sm_50", "H100 SXM5"])");
    auto resolution = resolve_text(text);
    CHECK_FALSE(resolution.stack);
    std::vector<std::string> failed;
    for (const auto& finding : resolution.report.findings)
        if (finding.verdict == Verdict::fail)
            failed.push_back(finding.subject + ": " + finding.message);
    CHECK(failed
        == std::vector<std::string> {
            "sm_50: jax==0.4.31: JAX's cuda12 build supports compute capability 5.2 and newer; sm_50 is 5.0" });
}

TEST_CASE("each GPU's verdict in the lock counts the findings of every framework", "[resolve][coexist]")
{
    std::string text = profile_text("2.4", "12.1", R"([{"name": "jax", "version": "0.4.31"}])");
    text.insert(text.size() - 1, R"(, "gpus": ["H100 SXM5"])");
    auto resolution = resolve_text(text);
    REQUIRE(resolution.stack);
    REQUIRE(resolution.stack->gpus.size() == 1);
    // torch's rules and JAX's both say cudnn-gpu-support-inferred of it: once
    CHECK(resolution.stack->gpus[0].codes
        == std::vector<std::string> {
            "gpu-cubin", "cudnn-gpu-support-inferred", "cuda-targets-gpu", "gpu-framework-minimum" });
}

TEST_CASE("a profile whose frameworks need two cuDNN wheels is refused naming both, the library and a fix",
    "[resolve][coexist]")
{
    CHECK(error_of(profile_text("2.3", "12.1", R"([{"name": "jax", "version": "0.4.31"}])"))
        == "conflict: team.json: also: torch 2.3 cu121 carries cuDNN 8.9.2.26 and jax 0.4.31 cuda12 needs cuDNN "
           "9.1-9.99: one environment holds one nvidia-cudnn-cu12, so they cannot be installed together | name "
           "releases that agree on cuDNN (`dlenv check` with both --framework options compares them), or lock each "
           "framework from its own profile");
}

TEST_CASE("a profile whose frameworks run on two CUDA majors is refused: one lock pins one CUDA", "[resolve][coexist]")
{
    CHECK(error_of(profile_text("2.7.1", "", R"([{"name": "jax", "version": "0.8.0"}])"))
        == "conflict: team.json: also: torch 2.7.1 cu126 runs on CUDA 12 and jax 0.8.0 cuda13 on CUDA 13: each "
           "loads its own CUDA libraries into one process, and the driver must run both | name releases built for "
           "one CUDA major (framework.cuda picks torch's), or lock each framework from its own profile");
}

TEST_CASE("tensorflow beside torch is held to torch's NCCL pin only where the profile installs it with and-cuda",
    "[resolve][coexist]")
{
    // torch 2.1.2 cu121 pins nvidia-nccl-cu12 2.18.1; tensorflow 2.16.1's and-cuda extra pins 2.19.3.
    CHECK(
        error_of(profile_text("2.1.2", "12.1", R"([{"name": "tensorflow", "version": "2.16.1", "extra": "and-cuda"}])"))
        == "conflict: team.json: also: torch 2.1.2 cu121 carries NCCL 2.18.1 and tensorflow 2.16.1 needs NCCL 2.19.3: "
           "one environment holds one nvidia-nccl-cu12, so they cannot be installed together | name releases that "
           "agree on NCCL (`dlenv check` with both --framework options compares them), or lock each framework from its "
           "own profile");

    auto plain = resolve_text(profile_text("2.1.2", "12.1", R"([{"name": "tensorflow", "version": "2.16.1"}])"));
    REQUIRE(plain.stack);
    REQUIRE(plain.stack->also.size() == 1);
    CHECK(plain.stack->also[0].framework.version.str() == "2.16.1");
    CHECK(plain.stack->also[0].extra.empty());
    CHECK(plain.stack->nccl == "2.18.1");
    // pip brings it no NVIDIA wheel; the profile's CUDA 12.1 only warns, as tensorflow 2.16 is tested with 12.3
    CHECK(plain.report.verdict() == Verdict::warn);
    std::vector<std::string> shared;
    for (const auto& finding : plain.report.findings)
        if (finding.code.starts_with("frameworks-") && finding.verdict == Verdict::ok)
            shared.push_back(finding.code);
    CHECK(shared == std::vector<std::string> { "frameworks-cudnn", "frameworks-nccl" });
}
