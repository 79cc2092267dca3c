#include "resolve/stack.h"

#include "core/closest.h"
#include "core/error.h"
#include "resolve/check.h"
#include "resolve/framework_build.h"
#include "resolve/targets.h"

#include <algorithm>

namespace dlenv::resolve {
namespace {

Query query_for(const Profile& profile, const HostFacts& host)
{
    Query query;
    query.frameworks.push_back(profile.framework);
    if (profile.framework.framework == Framework::torch && profile.cuda)
        query.frameworks.back().local = variant_tag(*profile.cuda);
    for (const auto& also : profile.also)
        query.frameworks.push_back(also);
    query.python = profile.python;
    query.driver = host.driver ? host.driver : profile.driver_floor;
    query.gpus = profile.gpus;
    for (const auto& gpu : host.gpus)
        if (std::find(query.gpus.begin(), query.gpus.end(), gpu) == query.gpus.end())
            query.gpus.push_back(gpu);
    query.forward_compat = profile.forward_compat;
    // A framework with one tested CUDA (TensorFlow) is checked against the profile's.
    if (profile.framework.framework != Framework::torch || !profile.also.empty())
        query.cuda = profile.cuda;
    return query;
}

Pep440Version with_local(const Pep440Version& version, const std::string& local)
{
    return local.empty() ? version : Pep440Version::parse(version.public_str() + "+" + local);
}

void note_unconfirmed(const matrix::Provenance& provenance, const std::string& what, Stack& stack)
{
    if (provenance.unconfirmed())
        stack.unconfirmed.push_back(what + (provenance.note.empty() ? "" : ": " + provenance.note));
}

std::vector<GpuVerdict> gpu_verdicts(
    const matrix::Matrix& matrix, const Query& query, const Report& report, Stack& stack)
{
    std::vector<GpuVerdict> out;
    for (const auto& text : query.gpus) {
        GpuTarget target = resolve_gpu(matrix, text);
        if (target.model)
            note_unconfirmed(target.model->provenance, target.label, stack);
        for (const auto* variant : target.variants)
            note_unconfirmed(variant->provenance, variant->name, stack);
        GpuVerdict verdict { target.label, target.compute_capability, Verdict::ok, {} };
        for (const auto& finding : report.findings)
            if (finding.subject == target.label) {
                verdict.verdict = std::max(verdict.verdict, finding.verdict);
                // each framework's rules may say the same of it (cudnn-gpu-support-inferred)
                if (std::find(verdict.codes.begin(), verdict.codes.end(), finding.code) == verdict.codes.end())
                    verdict.codes.push_back(finding.code);
            }
        out.push_back(std::move(verdict));
    }
    return out;
}

// The lock writes an unknown arch list as an empty one (and records none for a framework of
// `also`); this says which it is.
void note_gpu_code(const FrameworkBuild& build, Stack& stack)
{
    if (!build.arch_list)
        stack.unconfirmed.push_back("the GPU code of " + build.name() + ": its arch list is not on record");
    else if (!build.ptx)
        stack.unconfirmed.push_back(
            "the GPU code of " + build.name() + ": which architectures it carries PTX for is not on record");
}

std::optional<ComputeCapability> min_compute_capability_of(const FrameworkBuild& build)
{
    return build.jax_build ? build.jax_build->min_compute_capability : std::nullopt;
}

// Before 0.4.26 a JAX CUDA build is a jaxlib with a local label (0.4.20+cuda12.cudnn89), or
// jax-cuda12-plugin (0.4.22-0.4.25), that only JAX's own wheel page serves; the lock resolves
// from PyPI, whose jaxlib is the CPU build.
void refuse_unindexed_jaxlib(const FrameworkBuild& build, const std::string& where)
{
    if (!build.jax_build || !build.jax_build->wheel_page)
        return;
    const std::string& plugin = build.jax_build->plugin;
    throw Error(ErrorCode::invalid_input,
        where + ": " + build.name() + " installs " + (plugin.empty() ? "its CUDA jaxlib" : plugin)
            + " from JAX's own wheel page "
              "(https://storage.googleapis.com/jax-releases/jax_cuda_releases.html), not from PyPI, where dlenv locks "
              "packages",
        "lock jax 0.4.26 or newer, whose CUDA builds are on PyPI; `dlenv check` still judges this release");
}

// Each framework's build held to what a lock installs: an extra the build has, and packages
// on PyPI. Before `check`, which names the request rather than the profile's field. The order
// is query_for's: framework, then also.
void require_lockable_builds(const matrix::Matrix& matrix, const Profile& profile, const Query& query)
{
    for (std::size_t i = 0; i < query.frameworks.size(); ++i) {
        const FrameworkRequest& request = query.frameworks[i];
        std::string field = i == 0 ? "framework" : "also[" + std::to_string(i - 1) + "]";
        bool pinned = !request.local.empty();
        if (auto build = select_framework_build(matrix, request, pinned ? std::nullopt : query.cuda)) {
            require_known_extra(*build, profile.file + ": " + field + ".extra", field + ".extra");
            refuse_unindexed_jaxlib(*build, profile.file + ": " + field);
            // a profile's CUDA is the image's, which a build bringing its own from pip must share
            if (build->host_cuda_set_aside)
                throw Error(ErrorCode::invalid_input,
                    profile.file + ": framework.cuda: " + pip_cuda_contradiction(request, *build, *query.cuda),
                    "set the CUDA to " + build->jax_build->cuda.describe() + ", or drop the extra");
        }
    }
}

// The release a JAX or TensorFlow build installs: the one named, else the line's newest.
Pep440Version release_of(const FrameworkBuild& build)
{
    const auto& versions = build.tensorflow ? build.tensorflow->versions : build.jax->versions;
    if (versions.empty())
        throw Error(ErrorCode::conflict, "the matrix lists no release of " + build.name(),
            "add its versions to profiles/compat/");
    return build.version ? *build.version : versions.back();
}

// One lock pins one CUDA stack, so what `check` reports as frameworks that cannot share an
// environment (and as ones on two CUDA majors, which it only warns of) stops the lock.
void refuse_conflicts(const Profile& profile, const Report& report)
{
    for (const auto& finding : report.findings) {
        bool majors = finding.code == "frameworks-cuda-majors";
        if (!finding.code.starts_with("frameworks-") || (finding.verdict != Verdict::fail && !majors))
            continue;
        std::string library = majors ? "CUDA" : finding.code == "frameworks-cudnn" ? "cuDNN" : "NCCL";
        throw Error(ErrorCode::conflict, profile.file + ": also: " + finding.message,
            majors ? "name releases built for one CUDA major (framework.cuda picks torch's), or lock each "
                     "framework from its own profile"
                   : "name releases that agree on " + library
                    + " (`dlenv check` with both --framework options compares them), or lock each framework "
                      "from its own profile");
    }
}

// The frameworks of `also`, each on the CUDA of the stack's own build.
void pin_also(const matrix::Matrix& matrix, const Profile& profile, const CudaVersion& cuda, Stack& stack)
{
    for (std::size_t i = 0; i < profile.also.size(); ++i) {
        const FrameworkRequest& choice = profile.also[i];
        std::string field = "also[" + std::to_string(i) + "]";
        auto build = select_framework_build(matrix, choice, cuda.truncated(2));
        if (!build)
            throw Error(ErrorCode::invalid_input,
                profile.file + ": " + field + ": " + choice.text() + " has no build for CUDA " + cuda.text(),
                "name a release built for CUDA " + std::to_string(cuda.major()));
        note_unconfirmed(build->provenance, "the " + build->name() + " build", stack);
        note_gpu_code(*build, stack);
        if (const auto* first = matrix.first_toolkit(build->cuda);
            first && first->driver_linux && stack.toolkit_driver < *first->driver_linux)
            stack.toolkit_driver = *first->driver_linux;
        stack.also.push_back({ { std::string(to_string(build->framework)), release_of(*build) }, build->extra,
            build->variant, min_compute_capability_of(*build) });
    }
}

} // namespace

Resolution resolve_profile(const matrix::Matrix& matrix, const Profile& profile, const HostFacts& host)
{
    Query query = query_for(profile, host);
    require_lockable_builds(matrix, profile, query);
    Resolution resolution { check(matrix, query), std::nullopt };
    if (!profile.also.empty())
        refuse_conflicts(profile, resolution.report);
    if (resolution.report.verdict() == Verdict::fail)
        return resolution;

    const FrameworkRequest& request = query.frameworks.front();
    FrameworkBuild build = *select_framework_build(matrix, request, query.cuda); // set for JAX and TensorFlow only
    const auto* first = matrix.first_toolkit(build.cuda);
    if (!first)
        throw Error(ErrorCode::conflict, "the matrix has no CUDA " + build.cuda.text() + " toolkit release",
            "add its row to profiles/compat/cuda.json");

    Stack stack { .framework = {},
        .framework_extra = build.extra,
        .variant = build.variant,
        .companions = {},
        .also = {},
        .python = profile.python,
        .cuda = first->version,
        .cudnn = build.cudnn ? std::optional(build.cudnn->text()) : std::nullopt,
        .nccl = std::nullopt,
        .toolkit_driver = *first->driver_linux,
        .minor_version_driver = std::nullopt,
        .arch_list = build.arch_list.value_or(std::vector<ComputeCapability> {}),
        .ptx = build.ptx.value_or(std::vector<ComputeCapability> {}),
        .min_compute_capability = min_compute_capability_of(build),
        .gpus = {},
        .unconfirmed = {},
        .python_runtime = pin_python_runtime(matrix, profile) };
    stack.gpus = gpu_verdicts(matrix, query, resolution.report, stack);
    if (const auto* floor = matrix.minor_version_floor(build.cuda.major()))
        stack.minor_version_driver = floor->driver_linux;
    stack.forward_compat = query.driver && stack.minor_version_driver && *query.driver < *stack.minor_version_driver;
    note_unconfirmed(build.provenance, "the " + build.name() + " build", stack);
    note_gpu_code(build, stack);

    std::string local = build.variant.starts_with("cu") ? build.variant : "";
    if (build.torch) {
        const auto& variant = *build.torch_variant;
        if (variant.cuda_full)
            stack.cuda = *variant.cuda_full;
        if (variant.nccl)
            stack.nccl = variant.nccl->text();
        else
            stack.unconfirmed.push_back(
                "the NCCL of " + build.name() + ": the nvidia-nccl wheel its build pins is not on record");
        Pep440Version version = build.version ? *build.version : build.torch->versions.back();
        stack.framework = { "torch", with_local(version, local) };
        const matrix::CompanionSet* set = nullptr;
        for (const auto& candidate : build.torch->companions)
            if (candidate.torch == version)
                set = &candidate;
        for (Framework companion : profile.companions) {
            const auto& pinned = !set                 ? std::nullopt
                : companion == Framework::torchvision ? set->torchvision
                                                      : set->torchaudio;
            std::string name(to_string(companion));
            if (!pinned)
                throw Error(ErrorCode::conflict, "the matrix pairs no " + name + " with torch " + version.str(),
                    "drop " + name + " from " + profile.file
                        + " companions, or add the pair to "
                          "profiles/compat/torch.json");
            note_unconfirmed(set->provenance, name + " " + pinned->str(), stack);
            stack.companions.push_back({ name, with_local(*pinned, local) });
        }
    } else {
        stack.framework = { std::string(to_string(build.framework)), release_of(build) };
    }
    pin_also(matrix, profile, build.cuda, stack);
    resolution.stack = std::move(stack);
    return resolution;
}

} // namespace dlenv::resolve
