#include "resolve/query.h"

#include "core/closest.h"
#include "core/error.h"
#include "core/pep440.h"
#include "core/text.h"

#include <algorithm>
#include <cctype>

namespace dlenv::resolve {

std::string_view to_string(Framework framework)
{
    switch (framework) {
    case Framework::torch:
        return "torch";
    case Framework::torchvision:
        return "torchvision";
    case Framework::torchaudio:
        return "torchaudio";
    case Framework::tensorflow:
        return "tensorflow";
    case Framework::jax:
        return "jax";
    }
    return "unknown";
}

bool is_companion(Framework framework)
{
    return framework == Framework::torchvision || framework == Framework::torchaudio;
}

namespace {

struct HostOsName {
    HostOs os;
    std::string_view flag; // what --os takes
    std::string_view text; // what a message says
};

constexpr HostOsName k_host_os_names[] = {
    { HostOs::linux_host, "linux", "Linux" },
    { HostOs::windows_native, "windows", "native Windows" },
    { HostOs::windows_wsl2, "wsl2", "WSL 2" },
    { HostOs::macos, "macos", "macOS" },
};

const HostOsName& host_os_name(HostOs os)
{
    for (const auto& name : k_host_os_names)
        if (name.os == os)
            return name;
    return k_host_os_names[0]; // every enumerator has a row
}

} // namespace

std::string_view to_string(HostOs os)
{
    return host_os_name(os).flag;
}

std::string_view describe(HostOs os)
{
    return host_os_name(os).text;
}

bool runs_windows_driver(HostOs os)
{
    return os == HostOs::windows_native || os == HostOs::windows_wsl2;
}

HostOs parse_host_os(std::string_view text)
{
    for (const auto& name : k_host_os_names)
        if (equal_ignoring_case(text, name.flag))
            return name.os;
    throw Error(ErrorCode::invalid_input, "unknown operating system '" + std::string(text) + "'",
        "use linux, windows (native Windows), wsl2 (WSL 2 on Windows) or macos");
}

namespace {

bool is_tensorflow_gpu(std::string_view name)
{
    return name == "tensorflow-gpu" || name == "tensorflow_gpu";
}

// tensorflow-gpu is read as tensorflow of the same version: from 2.1 the two are one build
// under two names, and before 2.1 the matrix's rows are the tensorflow-gpu builds (tensorflow
// itself was the CPU one). From 2.12 the name installs nothing.

// PyPI's tensorflow-gpu: GPU builds up to 2.11.0, then a 2.12.0 that fails to install ("The
// \"tensorflow-gpu\" package has been removed! Please install \"tensorflow\" instead. Other than
// the name, the two packages have been identical since TensorFlow 2.1"), per
// https://pypi.org/project/tensorflow-gpu/; `pip install tensorflow-gpu` picks that stub
// (tensorflow#60886). tensorflow's 2.12 pre-releases were never published as tensorflow-gpu
// (tensorflow#59720). From 2.14 pip brings CUDA with tensorflow[and-cuda]
// (https://www.tensorflow.org/install/pip).
constexpr std::string_view k_tensorflow_gpu_stub = "2.12.0";

// `version_text` empty: the name alone, for which pip installs the stub.
void refuse_retired_tensorflow_gpu(const std::string& version_text)
{
    const auto stub = Pep440Version::parse(k_tensorflow_gpu_stub);
    const auto version = version_text.empty() ? stub : Pep440Version::parse(version_text);
    if (Pep440Version::parse(version.base_str()) < stub)
        return;
    const std::string pinned = version_text.empty() ? "" : "==" + version_text;
    const std::string retired = "the package was retired after 2.11, ";
    throw Error(ErrorCode::invalid_input,
        "tensorflow-gpu" + pinned + " does not install: " + retired
            + (version_text.empty() ? "and pip installs its last release, 2.12.0, a stub whose install stops with "
                                      "\"The tensorflow-gpu package has been removed\""
                    : version == stub
                    ? "and 2.12.0 is a stub whose install stops with \"The tensorflow-gpu package has been removed\""
                    : version < stub ? "and tensorflow's 2.12 pre-releases were never published under its name"
                                     : "and its one later release, 2.12.0, is a stub whose install fails"),
        "install tensorflow" + pinned + ", the same GPU build under its own name"
            + (!version_text.empty() && version < Pep440Version::parse("2.14")
                    ? std::string()
                    : " (tensorflow[and-cuda]" + pinned + " brings CUDA and cuDNN from pip)")
            + "; see https://pypi.org/project/tensorflow-gpu/");
}

// tensorflow-cpu is TensorFlow's CPU-only build ("For the CPU-only build, use the pip package
// named tensorflow-cpu", https://www.tensorflow.org/install/pip): read as tensorflow of the
// same version, whose Python and platform wheels it shares.
bool is_tensorflow_cpu(std::string_view name)
{
    return name == "tensorflow-cpu" || name == "tensorflow_cpu";
}

// tf-nightly is the package of TensorFlow's nightly builds, each versioned as the release it
// comes before (2.14.0.dev20230531): read as tensorflow of that pre-release.
bool is_tensorflow_nightly(std::string_view name)
{
    return name == "tf-nightly" || name == "tf_nightly";
}

// jaxlib is the compiled half of a JAX release and carries its version; a CUDA jaxlib's local
// label names its build (jaxlib==0.4.20+cuda12.cudnn89), so it is read as jax of that build.
bool is_jaxlib(std::string_view name)
{
    return name == "jaxlib";
}

// jax[cuda12]'s CUDA half, from 0.4.22: the plugin (jax-cuda12-plugin) and from 0.4.29 its
// PJRT package (jax-cuda12-pjrt), likewise for CUDA 13; pip's names, spelt with dashes.
std::string jax_plugin_name(std::string_view name)
{
    std::string normal(name);
    std::replace(normal.begin(), normal.end(), '_', '-');
    for (const char* major : { "12", "13" })
        for (const char* part : { "plugin", "pjrt" })
            if (normal == std::string("jax-cuda") + major + "-" + part)
                return normal;
    return "";
}

// "pytorch" is conda's name for torch (the pytorch channel's and conda-forge's package), of
// the same releases.
bool is_conda_torch(std::string_view name)
{
    return name == "pytorch";
}

// torch's CPU wheels' labels: "cpu", and "cpu.cxx11.abi" for the C++11 ABI builds.
bool cpu_label(std::string_view local)
{
    return local == "cpu" || local.starts_with("cpu.");
}

// `text` is `prefix` and then digits, with dots between them where `dots`: "cu118", "rocm6.2".
bool tagged(std::string_view text, std::string_view prefix, bool dots)
{
    if (!text.starts_with(prefix) || text.size() == prefix.size())
        return false;
    text.remove_prefix(prefix.size());
    return std::all_of(text.begin(), text.end(), [&](char c) { return (c >= '0' && c <= '9') || (dots && c == '.'); });
}

// PyTorch's CUDA labels write the version without its dot (+cu110): "+cu11.0" names no wheel.
void refuse_dotted_cuda_label(const FrameworkRequest& request)
{
    const bool pytorch = request.framework == Framework::torch || is_companion(request.framework);
    const std::size_t dot = request.local.find('.');
    if (!pytorch || dot == std::string::npos || !tagged(request.local, "cu", true))
        return;
    std::string undotted = request.local;
    undotted.erase(std::remove(undotted.begin(), undotted.end(), '.'), undotted.end());
    throw Error(ErrorCode::invalid_input,
        "'+" + request.local + "' in " + request.text()
            + " names no wheel: PyTorch's CUDA labels write the version without its dot",
        "write " + request.package() + "==" + request.version + "+" + undotted);
}

// "tensorflow[and-cuda]": takes the one extra off `name`, as PEP 508 writes it.
std::string take_extra(std::string_view text, std::string& name)
{
    std::size_t open = name.find('[');
    if (open == std::string::npos)
        return "";
    std::string extra = name.substr(open + 1);
    name.erase(open);
    auto is_extra_char
        = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'; };
    if (extra.empty() || extra.back() != ']' || extra.size() == 1
        || !std::all_of(extra.begin(), extra.end() - 1, is_extra_char))
        throw Error(ErrorCode::invalid_input, "'" + std::string(text) + "' does not name one pip extra",
            "write NAME[EXTRA]==VERSION, e.g. tensorflow[and-cuda]==2.16 or jax[cuda12]==0.4.31");
    extra.pop_back();
    return extra;
}

// Apple's Metal plugins run a framework on a Mac's own GPU, which no CUDA stack involves:
// named, they are told apart from a misspelt framework.
std::string_view metal_plugin_of(std::string_view name)
{
    return name == "tensorflow-metal" || name == "tensorflow_metal" ? "tensorflow"
        : name == "jax-metal" || name == "jax_metal"                ? "jax"
                                                                    : "";
}

} // namespace

FrameworkRequest FrameworkRequest::parse(std::string_view text)
{
    std::size_t eq = text.find("==");
    std::string name(text.substr(0, eq));
    std::string extra = take_extra(text, name);
    if (eq == std::string_view::npos && name.find_first_of("<>=!~ ") != std::string::npos)
        throw Error(ErrorCode::invalid_input, "'" + std::string(text) + "' does not name one version",
            "write NAME==VERSION, e.g. torch==2.1 or tensorflow==2.15.0, or NAME alone for the newest release");

    std::vector<std::string> names;
    for (auto f :
        { Framework::torch, Framework::torchvision, Framework::torchaudio, Framework::tensorflow, Framework::jax })
        names.emplace_back(to_string(f));
    FrameworkRequest request {};
    bool tensorflow_gpu = is_tensorflow_gpu(name);
    bool tensorflow_cpu = is_tensorflow_cpu(name);
    bool tensorflow_nightly = is_tensorflow_nightly(name);
    std::string jax_plugin = jax_plugin_name(name);
    std::string read_as = tensorflow_gpu || tensorflow_cpu || tensorflow_nightly
        ? std::string(to_string(Framework::tensorflow))
        : is_jaxlib(name) || !jax_plugin.empty() ? std::string(to_string(Framework::jax))
        : is_conda_torch(name)                   ? std::string(to_string(Framework::torch))
                                                 : name;
    auto it = std::find(names.begin(), names.end(), read_as);
    if (const std::string framework(it == names.end() ? metal_plugin_of(name) : ""); !framework.empty())
        throw Error(ErrorCode::invalid_input,
            name + " is Apple's Metal plugin for " + framework + ", which runs it on a Mac's GPU: dlenv checks NVIDIA "
                + "CUDA stacks",
            "check " + framework + " itself (--framework " + framework + "==VERSION --os macos); which " + framework
                + " releases the plugin supports is Apple's to say");
    if (it == names.end()) {
        auto near = closest_matches(name, names, 1);
        throw Error(ErrorCode::invalid_input, "unknown framework '" + name + "'",
            (near.empty() ? std::string() : "did you mean " + near.front() + "? ")
                + "known: " + join_alternatives(names, " and "));
    }
    request.framework = static_cast<Framework>(it - names.begin());
    request.extra = std::move(extra);
    request.jaxlib = is_jaxlib(name);
    request.tensorflow_package = tensorflow_gpu ? TensorflowPackage::gpu
        : tensorflow_cpu                        ? TensorflowPackage::cpu
                                                : TensorflowPackage::tensorflow;
    request.jax_plugin = jax_plugin;
    if (eq == std::string_view::npos && !tensorflow_nightly) { // the newest release: pip's answer to the name alone
        if (tensorflow_gpu)
            refuse_retired_tensorflow_gpu("");
        return request;
    }
    const std::string version(eq == std::string_view::npos ? "" : text.substr(eq + 2));
    auto parsed = Pep440Version::try_parse(version);
    if (tensorflow_nightly && !(parsed && parsed->dev()))
        throw Error(ErrorCode::invalid_input,
            "'" + std::string(text) + "' names no nightly: tf-nightly publishes only nightly builds",
            "name one as pip lists it (tf-nightly==2.14.0.dev20230531), or the release as tensorflow==X.Y.Z");
    // a pre-release names the X.Y.Z it comes before, so its line is that release's
    if (!parsed || parsed->release().size() < (parsed->is_prerelease() ? 3 : 2))
        throw Error(ErrorCode::invalid_input, "'" + version + "' is not a release of " + name,
            "write a release line or version, e.g. " + name + "==2.1 or " + name + "==2.1.2");
    request.version = parsed->public_str();
    request.local = parsed->local_str();
    refuse_dotted_cuda_label(request);
    if (tensorflow_gpu)
        refuse_retired_tensorflow_gpu(request.version);
    return request;
}

bool FrameworkRequest::names_source_build() const
{
    if (framework != Framework::torch || local.empty())
        return false;
    bool wheel_variant
        = cpu_label(local) || local == "xpu" || tagged(local, "cu", false) || tagged(local, "rocm", true);
    return !wheel_variant;
}

bool FrameworkRequest::names_cpu_build() const
{
    switch (framework) {
    case Framework::torch:
        return cpu_label(local);
    case Framework::jax:
        return ascii_lowercase(extra) == "cpu" && !jaxlib && jax_plugin.empty(); // PEP 685 compares it so
    case Framework::tensorflow:
        return tensorflow_package == TensorflowPackage::cpu;
    case Framework::torchvision:
    case Framework::torchaudio:
        return false;
    }
    return false;
}

bool names_gpu_stack(const Query& query)
{
    return query.cuda || query.cudnn || query.driver || query.driver_branch || !query.gpus.empty()
        || query.forward_compat;
}

PythonRequest PythonRequest::parse(std::string_view text)
{
    bool free_threaded = text.size() > 1 && text.back() == 't';
    return { PythonVersion::parse(free_threaded ? text.substr(0, text.size() - 1) : text), free_threaded };
}

DriverRequest DriverRequest::parse(std::string_view text)
{
    // a branch is a few digits ("535"), or as NVIDIA's documents write it ("R535"); a longer run
    // is left to the release's own error
    std::string_view digits = text;
    if (digits.starts_with('R') || digits.starts_with('r'))
        digits.remove_prefix(1);
    if (!digits.empty() && digits.size() <= 4 && all_ascii_digits(digits))
        return { std::nullopt, static_cast<std::uint32_t>(std::stoul(std::string(digits))) };
    return { DriverVersion::parse(text), std::nullopt };
}

bool FrameworkRequest::is_pre_release() const
{
    auto parsed = Pep440Version::try_parse(version);
    return parsed && parsed->is_prerelease();
}

std::string FrameworkRequest::text() const
{
    return package() + (extra.empty() || extra_implied ? "" : "[" + extra + "]")
        + (version.empty() ? "" : "==" + version) + (local.empty() ? "" : "+" + local);
}

std::string FrameworkRequest::package() const
{
    return jaxlib ? "jaxlib" : !jax_plugin.empty() ? jax_plugin : std::string(to_string(framework));
}

JaxRequests jax_requests(const Query& query)
{
    JaxRequests out;
    for (const auto& request : query.frameworks) {
        if (request.framework != Framework::jax)
            continue;
        if (!request.jax_plugin.empty())
            out.plugins.push_back(&request);
        else
            (request.jaxlib ? out.jaxlib : out.jax) = &request;
    }
    return out;
}

} // namespace dlenv::resolve
