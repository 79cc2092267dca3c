#include "resolve/framework_on_base.h"

namespace dlenv::resolve {
namespace {

// The sources of the rule that runs applications built with X.Y on later X releases.
std::string backward_compatibility_source(const matrix::Matrix& matrix, std::uint32_t major)
{
    const matrix::MinorVersionFloor* floor = matrix.minor_version_floor(major);
    return floor ? floor->provenance.cite() : std::string();
}

Finding check_cuda(const BaseFact<CudaVersion>& base, const FrameworkNeeds& framework, const matrix::Matrix& matrix)
{
    const CudaVersion& built = framework.cuda;
    std::string says = "the base carries CUDA " + base.value.text() + " (" + base.origin + ")";
    std::string why = backward_compatibility_source(matrix, built.major());
    std::string line = built.truncated(2).text();
    if (framework.sources.cuda_runtime) {
        Verdict verdict = base.value.major() == built.major() ? Verdict::ok : Verdict::warn;
        return { "base-cuda", verdict,
            framework.name + " loads its CUDA " + line + " runtime from the " + *framework.sources.cuda_runtime
                + " wheel; " + says + ", which it does not load",
            why };
    }
    if (base.value.major() != built.major())
        return { "base-cuda", Verdict::fail,
            framework.name + " is built with CUDA " + line + " and loads the base's CUDA libraries, but " + says
                + ": their sonames carry the major (" + cudart_soname(built) + "), so a CUDA "
                + std::to_string(built.major()) + " build cannot load them; use a CUDA " + line + " base"
                + (framework.sources.known ? std::string()
                                           : ", or pin the packages (dlenv lock without --offline) if its wheels "
                                             "bring their CUDA runtime"),
            why };
    if (base.value.truncated(2) < built.truncated(2))
        return { "base-cuda", Verdict::warn,
            framework.name + " is built with CUDA " + line + " but " + says
                + ": a build may use what its CUDA line added, which an older line's libraries lack; use a CUDA " + line
                + " base or later",
            why };
    if (base.value.truncated(2) == built.truncated(2))
        return { "base-cuda", Verdict::ok,
            says + ", an update of the CUDA " + line + " line " + framework.name + " is built with", why };
    return { "base-cuda", Verdict::ok,
        says + ", a later release of the CUDA " + std::to_string(built.major()) + " family than the " + line + " "
            + framework.name + " is built with; applications built with an earlier toolkit of a family run on it",
        why };
}

std::optional<Finding> check_cudnn(const BaseContents& base, const FrameworkNeeds& framework)
{
    if (!framework.cudnn)
        return std::nullopt;
    const CudnnVersion& built = *framework.cudnn;
    if (framework.sources.cudnn)
        return Finding { "base-cudnn", Verdict::ok,
            framework.name + " loads cuDNN " + built.text() + " from the " + *framework.sources.cudnn + " wheel"
                + (base.cudnn ? "; the base's cuDNN " + base.cudnn->value.text() + " is not the one it loads"
                              : std::string()) };
    if (!base.cudnn)
        return std::nullopt;
    const BaseFact<CudnnVersion>& found = *base.cudnn;
    std::string says = "the base carries cuDNN " + found.value.text() + " (" + found.origin + ")";
    if (found.value.major() != built.major())
        return Finding { "base-cudnn", Verdict::fail,
            framework.name + " is built with cuDNN " + built.text() + " and loads the base's, but " + says + ": cuDNN "
                + std::to_string(built.major()) + " builds load libcudnn.so." + std::to_string(built.major()) };
    if (found.value < built && !framework.sources.known)
        return Finding { "base-cudnn", Verdict::warn,
            framework.name + " is built with cuDNN " + built.text() + " but " + says + ", which is older: it serves "
                + framework.name + " only if a wheel brings a newer one, and the lock pins no packages to say so" };
    if (found.value < built)
        return Finding { "base-cudnn", Verdict::fail,
            framework.name + " is built with cuDNN " + built.text() + " and loads the base's, but " + says
                + ", which is older; use a base with cuDNN " + built.truncated(2).text() + " or later" };
    return Finding { "base-cudnn", Verdict::ok,
        says + ", which " + framework.name + " (built with cuDNN " + built.text() + ") loads" };
}

std::optional<Finding> check_nccl(const BaseContents& base, const FrameworkNeeds& framework)
{
    if (!framework.nccl)
        return std::nullopt;
    const NcclVersion& built = *framework.nccl;
    if (framework.sources.nccl)
        return Finding { "base-nccl", Verdict::ok,
            framework.name + " loads NCCL " + built.text() + " from the " + *framework.sources.nccl + " wheel"
                + (base.nccl ? "; the base's NCCL " + base.nccl->value.text() + " is not the one it loads"
                             : std::string()) };
    if (!base.nccl)
        return std::nullopt;
    std::string says = "the base carries NCCL " + base.nccl->value.text() + " (" + base.nccl->origin + ")";
    if (base.nccl->value.major() != built.major())
        return Finding { "base-nccl", Verdict::fail,
            framework.name + " is built with NCCL " + built.text() + " and loads the base's, but " + says + ": NCCL "
                + std::to_string(built.major()) + " builds load libnccl.so." + std::to_string(built.major()) };
    if (base.nccl->value < built)
        return Finding { "base-nccl", Verdict::warn,
            framework.name + " is built with NCCL " + built.text() + " but " + says
                + ", which is older: what the newer release added is missing" };
    return Finding { "base-nccl", Verdict::ok,
        says + ", which " + framework.name + " (built with NCCL " + built.text() + ") loads" };
}

bool brings(const std::string& package, const std::string& library)
{
    return package == "nvidia-" + library || package.starts_with("nvidia-" + library + "-cu");
}

} // namespace

LibrarySources library_sources_of(const std::optional<std::vector<std::string>>& packages)
{
    LibrarySources sources;
    if (!packages)
        return sources;
    sources.known = true;
    for (const auto& package : *packages) {
        if (brings(package, "cuda-runtime"))
            sources.cuda_runtime = package;
        else if (brings(package, "cudnn"))
            sources.cudnn = package;
        else if (brings(package, "nccl"))
            sources.nccl = package;
    }
    return sources;
}

std::vector<Finding> check_framework_on_base(
    const BaseContents& base, const FrameworkNeeds& framework, const matrix::Matrix& matrix)
{
    std::vector<Finding> findings;
    if (!base.cuda)
        return findings;
    findings.push_back(check_cuda(*base.cuda, framework, matrix));
    if (auto cudnn = check_cudnn(base, framework))
        findings.push_back(std::move(*cudnn));
    if (auto nccl = check_nccl(base, framework))
        findings.push_back(std::move(*nccl));
    return findings;
}

} // namespace dlenv::resolve
