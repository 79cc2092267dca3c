#include "lock/package_plan.h"

#include "core/error.h"

namespace dlenv::lock {
namespace {

// https://pytorch.org/get-started/locally/ and .../previous-versions/: CUDA builds of
// torch, torchvision and torchaudio install with --index-url
// https://download.pytorch.org/whl/<variant>, which also serves the nvidia-* and
// triton wheels they require.
const char* const k_pypi = "https://pypi.org/simple/";
const char* const k_pytorch = "https://download.pytorch.org/whl/";
const std::vector<std::string> k_pytorch_projects = { "torch", "torchvision", "torchaudio", "triton", "nvidia-*" };

std::string join_names(const std::map<std::string, std::string>& map)
{
    std::string out;
    for (const auto& [name, url] : map)
        out += (out.empty() ? "" : ", ") + name;
    return out;
}

// "nvidia-cudnn-cu11": the pip wheels of NVIDIA's libraries are named by CUDA major.
std::string cuda_wheel(const std::string& library, const resolve::Stack& stack)
{
    return "nvidia-" + library + "-cu" + std::to_string(stack.cuda.major());
}

// "jax[cuda12]==0.4.31": a framework pinned, with the extra that brings its CUDA.
pypi::Requirement framework_requirement(const resolve::PinnedPackage& framework, const std::string& extra)
{
    return pypi::Requirement::parse(
        framework.name + (extra.empty() ? "" : "[" + extra + "]") + "==" + framework.version.str());
}

} // namespace

PackageSources package_sources(const resolve::Profile& profile, const resolve::Stack& stack)
{
    PackageSources sources { { { "pypi", k_pypi } }, {}, "pypi" };
    if (stack.framework.name == "torch") {
        sources.indexes["pytorch"] = std::string(k_pytorch) + stack.variant + "/";
        for (const auto& project : k_pytorch_projects)
            sources.index_of[project] = "pytorch";
    }
    for (const auto& [name, url] : profile.packages.indexes)
        sources.indexes[name] = url;
    for (const auto& [project, index] : profile.packages.index_of) {
        if (!sources.indexes.contains(index))
            throw Error(ErrorCode::invalid_input,
                profile.file + ": packages.index_of." + project + ": no index named '" + index + "'",
                "the indexes are " + join_names(sources.indexes) + "; add '" + index + "' to packages.indexes");
        sources.index_of[project] = index;
    }
    return sources;
}

PythonEnvironment python_environment(const resolve::Profile& profile, const resolve::Stack& stack)
{
    const resolve::PackageSettings& settings = profile.packages;
    std::optional<PythonRuntime> runtime;
    if (const auto& pin = stack.python_runtime)
        runtime = PythonRuntime { pin->url, pin->sha256, pin->version, pin->release };
    return { stack.python.text(), settings.machine,
        std::to_string(settings.glibc_major) + "." + std::to_string(settings.glibc_minor), "/usr/local", runtime };
}

std::vector<pypi::Requirement> profile_requirements(const resolve::Profile& profile)
{
    std::vector<pypi::Requirement> out;
    for (std::size_t i = 0; i < profile.requirements.size(); ++i) {
        try {
            out.push_back(pypi::Requirement::parse(profile.requirements[i]));
        } catch (const Error& e) {
            throw Error(e.code(), profile.file + ": requirements[" + std::to_string(i) + "]: " + e.message(), e.hint());
        }
    }
    return out;
}

pypi::ResolveRequest package_request(const resolve::Profile& profile, const resolve::Stack& stack)
{
    pypi::ResolveRequest request;
    request.requester = "profile " + profile.name;
    request.target = pypi::Target::linux_cpython(
        stack.python, profile.packages.machine, profile.packages.glibc_major, profile.packages.glibc_minor);
    request.requirements.push_back(framework_requirement(stack.framework, stack.framework_extra));
    for (const auto& also : stack.also)
        request.requirements.push_back(framework_requirement(also.framework, also.extra));
    for (const auto& companion : stack.companions)
        request.requirements.push_back(pypi::Requirement::parse(companion.name + "==" + companion.version.str()));
    for (auto& requirement : profile_requirements(profile))
        request.requirements.push_back(std::move(requirement));
    std::string why = " (profile " + profile.name + ")";
    if (stack.cudnn)
        request.constraints[cuda_wheel("cudnn", stack)]
            = { pypi::SpecifierSet::parse("==" + *stack.cudnn + ".*"), "the stack pins cuDNN " + *stack.cudnn + why };
    if (stack.nccl)
        request.constraints[cuda_wheel("nccl", stack)]
            = { pypi::SpecifierSet::parse("==" + *stack.nccl + ".*"), "the stack pins NCCL " + *stack.nccl + why };
    return request;
}

} // namespace dlenv::lock
