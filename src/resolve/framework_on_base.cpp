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

// A library the framework loads from its wheel or from the base, and how it is judged.
template <typename Version> struct LoadedLibrary {
    std::string code; // "base-cudnn"
    std::string name; // "cuDNN"
    std::string soname_stem; // "libcudnn.so."
    const std::optional<Version>& built;
    const std::optional<std::string>& wheel;
    const std::optional<BaseFact<Version>>& found;
    bool older_fails; // an older one than the build's fails (once the lock says it is the base's)
    std::string older_why; // why an older one only warns, where it does
};

// Where the framework takes the library from its wheel, the base's is said to go unused.
// From the base: the same major, and no older than the build's.
template <typename Version>
std::optional<Finding> check_loaded(const LoadedLibrary<Version>& library, const FrameworkNeeds& framework)
{
    if (!library.built)
        return std::nullopt;
    const Version& built = *library.built;
    std::string build = framework.name + " is built with " + library.name + " " + built.text();
    if (library.wheel)
        return Finding { library.code, Verdict::ok,
            framework.name + " loads " + library.name + " " + built.text() + " from the " + *library.wheel + " wheel"
                + (library.found ? "; the base's " + library.name + " " + library.found->value.text()
                            + " is not the one it loads"
                                 : std::string()) };
    if (!library.found)
        return std::nullopt;
    const BaseFact<Version>& found = *library.found;
    std::string says = "the base carries " + library.name + " " + found.value.text() + " (" + found.origin + ")";
    if (found.value.major() != built.major())
        return Finding { library.code, Verdict::fail,
            build + " and loads the base's, but " + says + ": " + library.name + " " + std::to_string(built.major())
                + " builds load " + library.soname_stem + std::to_string(built.major()) };
    if (found.value < built && !(library.older_fails && framework.sources.known))
        return Finding { library.code, Verdict::warn,
            build + " but " + says + ", which is older: " + library.older_why };
    if (found.value < built)
        return Finding { library.code, Verdict::fail,
            build + " and loads the base's, but " + says + ", which is older; use a base with " + library.name + " "
                + built.truncated(2).text() + " or later" };
    return Finding { library.code, Verdict::ok,
        says + ", which " + framework.name + " (built with " + library.name + " " + built.text() + ") loads" };
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
    LoadedLibrary<CudnnVersion> cudnn {
        "base-cudnn", "cuDNN", "libcudnn.so.", framework.cudnn, framework.sources.cudnn, base.cudnn, true,
        "it serves " + framework.name + " only if a wheel brings a newer one, and the lock pins no packages to say so"
    };
    LoadedLibrary<NcclVersion> nccl { "base-nccl", "NCCL", "libnccl.so.", framework.nccl, framework.sources.nccl,
        base.nccl, false, "what the newer release added is missing" };
    for (auto finding : { check_loaded(cudnn, framework), check_loaded(nccl, framework) })
        if (finding)
            findings.push_back(std::move(*finding));
    return findings;
}

} // namespace dlenv::resolve
