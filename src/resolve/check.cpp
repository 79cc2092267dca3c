#include "resolve/check.h"

#include "core/closest.h"
#include "core/error.h"
#include "resolve/driver_branch.h"
#include "resolve/neighbours.h"
#include "resolve/newest_release.h"
#include "resolve/rules.h"

#include <algorithm>
#include <cctype>

namespace dlenv::resolve {
namespace {

// The fix for a CUDA label naming a build a release was never published for.
constexpr const char* pin_a_build = "pin one of them, or drop the label for the release's default build";

// ", NCCL 2.18.1" for a torch build whose nvidia-nccl pin the matrix holds; where it
// does not, the lock's NCCL is unknown, and this says so rather than leave it out.
std::string torch_nccl_text(const FrameworkBuild& build)
{
    if (!build.torch_variant)
        return "";
    return build.torch_variant->nccl ? ", NCCL " + build.torch_variant->nccl->text() : ", NCCL not on record";
}

// How a build no label or CUDA named was picked: PyPI's default, which on native Windows,
// where PyPI carries only the CPU build, is the CUDA build it is on Linux.
std::string default_build_note(const matrix::Matrix& matrix, const Query& query, const FrameworkBuild& build)
{
    if (!build.pypi_default || query.cuda)
        return "";
    const auto* windows = windows_gpu_support(matrix, build.framework);
    const bool cpu_here = (query.os == HostOs::windows_native && windows && !has_windows_cuda(*windows, build))
        || (query.os == HostOs::macos && !has_macos_cuda(matrix, build));
    return cpu_here ? " (PyPI's default build on Linux)" : " (the PyPI default build)";
}

// What the label of a torch request names where it is no CUDA build: "cpu", "cpu.cxx11.abi",
// "rocm6.2.4", "xpu"; empty for any other label. The matrix holds CUDA builds only, so these are
// judged by the label alone.
std::string non_cuda_build(const FrameworkRequest& request)
{
    if (request.names_cpu_build())
        return "the CPU-only build";
    const std::string_view label = request.local;
    if (label.starts_with("rocm"))
        return "a build for AMD GPUs (ROCm " + std::string(label.substr(4)) + ")";
    if (label == "xpu")
        return "a build for Intel GPUs (XPU)";
    return "";
}

// jaxlib and the JAX plugins are published together, at the version of the jax release they
// come with: none for a release published alone (jax 0.5.2 installs jaxlib 0.5.1), and a plugin
// only for the releases whose CUDA builds name it (jax-cuda12-plugin from 0.4.22, its PJRT
// package from 0.4.29, CUDA 13's from 0.8.0). A requirement of another names no wheel.
void refuse_unpublished_jax_package(const matrix::Matrix& matrix, const FrameworkRequest& request)
{
    if (!request.jaxlib && request.jax_plugin.empty())
        return;
    const auto version = Pep440Version::parse(request.version);
    const std::string package = request.package();
    const std::string never = request.text() + ": " + package + " " + version.public_str() + " was never published: ";
    if (const auto* row = matrix.jax_released_alone(version)) {
        const std::string jax = row->jax.public_str();
        throw Error(ErrorCode::invalid_input,
            never + "jax " + jax + " was released alone, and its extras install jaxlib " + row->jaxlib.public_str(),
            "pin " + package + "==" + row->jaxlib.public_str() + " with jax==" + jax + ", or name jax alone");
    }
    if (request.jax_plugin.empty() || version.release().size() < 3)
        return;
    const auto& release = find_release_line(matrix.jax_releases(), request);
    std::vector<std::string> packages;
    for (const auto& build : release.builds)
        for (const auto* name : { &build.plugin, &build.pjrt })
            if (!name->empty() && std::find(packages.begin(), packages.end(), *name) == packages.end())
                packages.push_back(*name);
    if (std::find(packages.begin(), packages.end(), request.jax_plugin) != packages.end())
        return;
    throw Error(ErrorCode::invalid_input,
        never + "jax " + version.public_str() + "'s CUDA builds install "
            + (packages.empty() ? "a CUDA jaxlib, no plugin" : join_alternatives(packages, " and ")),
        "name the packages of jax " + version.public_str() + ", or a release that has " + package);
}

// Unknown versions are bad input (exit 2), not a failed check: name the nearest ones.
void validate_versions(const matrix::Matrix& matrix, const Query& query)
{
    for (const auto& request : query.frameworks)
        refuse_unpublished_jax_package(matrix, request);
    if (query.cuda && matrix.toolkit_releases(*query.cuda).empty())
        throw Error(ErrorCode::invalid_input, "CUDA " + query.cuda->text() + " is not a CUDA release",
            "nearest known: "
                + join_alternatives(known_neighbours(matrix.toolkit_lines(), *query.cuda).texts(), " and "));
    // a patch release of a known X.Y is judged by that line's releases (check_cudnn says so)
    if (query.cudnn && matrix.cudnn_releases_matching(query.cudnn->truncated(2)).empty()) {
        std::vector<std::string> known;
        for (const auto& release : matrix.cudnn_releases())
            known.push_back(release.version.text());
        throw Error(ErrorCode::invalid_input, "cuDNN " + query.cudnn->text() + " is not a release the matrix knows",
            "nearest known: " + join_alternatives(known_neighbours(known, *query.cudnn).texts(), " and "));
    }
}

// The torch release line a companion release is built with, and the set that pairs them.
struct CompanionOf {
    const matrix::TorchRelease* release = nullptr;
    const matrix::CompanionSet* set = nullptr;
};

CompanionOf companion_of(const matrix::Matrix& matrix, const FrameworkRequest& companion)
{
    auto wanted = Pep440Version::parse(companion.version);
    for (const auto& release : matrix.torch_releases())
        for (const auto& set : release.companions) {
            const auto& have = companion.framework == Framework::torchvision ? set.torchvision : set.torchaudio;
            if (have && have->without_local() == wanted)
                return { &release, &set };
        }
    return {};
}

// The torch request a companion implies when torch itself was not named.
std::optional<FrameworkRequest> torch_for_companion(const matrix::Matrix& matrix, const FrameworkRequest& companion)
{
    if (const auto* set = companion_of(matrix, companion).set)
        return FrameworkRequest { Framework::torch, set->torch.public_str(), "" };
    return std::nullopt;
}

std::string variant_list(const matrix::TorchRelease& release)
{
    std::vector<std::string> names;
    for (const auto& v : release.variants)
        names.push_back(v.tag + " (CUDA " + v.cuda.text() + (v.experimental ? ", experimental" : "") + ")");
    return join_alternatives(names, " and ");
}

// A torchvision release whose wheels carry no local label names none of its builds by one; the
// fix release beside it, built with the same torch, does (vision#2912: torchvision 0.8.0+cu110 is
// not on the index, "will have to issue a v0.8.1 to resolve this").
[[noreturn]] void refuse_unlabelled_torchvision(
    const matrix::TorchRelease& release, const matrix::CompanionSet& set, const FrameworkRequest& companion)
{
    const std::string name = "torchvision " + companion.version;
    std::string hint = "write torchvision==" + companion.version + ", the name its wheels carry";
    for (const auto& other : release.companions)
        if (other.torch == set.torch && other.torchvision && !other.torchvision_unlabelled) {
            hint = "use torchvision==" + other.torchvision->public_str() + "+" + companion.local
                + ", built with the same torch " + set.torch.str() + ", whose wheels carry the label";
            break;
        }
    throw Error(ErrorCode::invalid_input,
        companion.text() + ": " + name + " names no published wheel: its wheels carry no local label", hint);
}

// A companion is published for the builds of the torch it is built with: a CUDA label that torch
// has no build for names a wheel never published (torchvision==0.6.0+cu121; 0.6.0 is torch
// 1.5.0's, built for CUDA 9.2 to 10.2), as for torch itself.
void refuse_unpublished_companion(const matrix::Matrix& matrix, const FrameworkRequest& companion)
{
    if (companion.local.empty() || companion.is_pre_release())
        return;
    // torchaudio on PyTorch's stable ABI is published beside later torch releases too, for their builds
    if (companion.framework == Framework::torchaudio
        && on_torchaudio_stable_abi(matrix, Pep440Version::parse(companion.version)))
        return;
    const auto [release, set] = companion_of(matrix, companion);
    if (!release)
        return; // an unknown release is check_companion's to refuse
    const auto& variants = release->variants;
    const bool torch_has_it = companion.local == "cpu"
        || std::any_of(variants.begin(), variants.end(), [&](const auto& v) { return v.tag == companion.local; });
    if (torch_has_it && companion.framework == Framework::torchvision && set->torchvision_unlabelled)
        refuse_unlabelled_torchvision(*release, *set, companion);
    if (torch_has_it || !matrix::variant_cuda(companion.local))
        return;
    std::string name = companion.package() + " " + companion.version;
    throw Error(ErrorCode::invalid_input, companion.text() + ": " + name + " has no " + companion.local + " build",
        name + " is built with torch " + set->torch.str() + ", whose builds are " + variant_list(*release) + ": "
            + pin_a_build);
}

// A companion named without torch is judged by the torch it is built for; one of a version no
// companion set has (torchvision==2.5.1, torch's number by mistake) is refused as unknown, as it
// is beside torch, instead of passing with nothing judged.
void refuse_unknown_companion_alone(const matrix::Matrix& matrix, const FrameworkRequest& companion)
{
    if (companion.version.empty() || companion_of(matrix, companion).set)
        return;
    const bool vision = companion.framework == Framework::torchvision;
    const auto wanted = Pep440Version::parse(companion.version);
    if (!vision && on_torchaudio_stable_abi(matrix, wanted))
        return;
    std::string hint = "check the version, or name torch beside it";
    for (const auto& release : matrix.torch_releases())
        for (const auto& set : release.companions)
            if (const auto& own = vision ? set.torchvision : set.torchaudio; own && set.torch == wanted)
                hint = "torch " + set.torch.str() + " pairs with " + companion.package() + " " + own->str();
    throw Error(ErrorCode::invalid_input,
        companion.package() + " " + companion.version + " is not a release the matrix knows", hint);
}

// What pip on native Windows cannot install: a CUDA build pinned by its label where the
// framework publishes none for Windows (jaxlib==0.4.9+cuda12.cudnn88), or a release's CUDA extra
// that requires a package with Linux wheels alone (tensorflow[and-cuda]==2.16.1 and
// nvidia-nccl-cu12, jax[cuda12]==0.4.30 and jax-cuda12-plugin).
void refuse_unpublished_on_windows(const matrix::Matrix& matrix, const Query& query, const FrameworkRequest& request,
    const FrameworkBuild& build, bool pinned)
{
    if (query.os != HostOs::windows_native)
        return;
    const auto* windows = windows_gpu_support(matrix, request.framework);
    if (!windows)
        return;
    const std::string framework = request.package();
    const std::string hint = "run it under WSL 2 (--os wsl2), or in dlenv's Linux image";
    if (pinned && build.torch_variant && build.torch_variant->no_windows_wheels) {
        std::vector<std::string> published;
        for (const auto& variant : build.torch->variants)
            if (!variant.no_windows_wheels)
                published.push_back(variant.tag);
        throw Error(ErrorCode::invalid_input,
            request.text() + ": torch " + request.version + " has no " + request.local + " build for Windows",
            "its Windows builds: " + join_alternatives(published, " and ") + ": pin one of them, or " + hint);
    }
    if (pinned && !windows->native_gpu)
        throw Error(ErrorCode::invalid_input,
            request.text() + ": " + framework + " " + request.version + "+" + request.local
                + " is not published for native Windows: no " + framework + " release publishes CUDA builds for it",
            hint);
    // named without a version, pip settles on an older release, without the extra if need be
    if (request.extra.empty() || request.version_read)
        return;
    // a CUDA extra of a framework with no Windows CUDA build requires one: JAX's plugin, or
    // before it a labelled jaxlib from JAX's own wheel page
    std::string linux_only = windows->pip_extra_linux_only;
    if (linux_only.empty() && !windows->native_gpu && build.jax_build)
        linux_only = !build.jax_build->plugin.empty() ? build.jax_build->plugin : "a CUDA jaxlib " + request.version;
    if (!linux_only.empty())
        throw Error(ErrorCode::invalid_input,
            request.text() + ": " + framework + "[" + request.extra
                + "] does not install on native Windows: it requires " + linux_only
                + ", which is published for Linux alone",
            hint + ", or drop [" + request.extra + "] for the CPU build");
}

// "CUDA 12.0 or newer with cuDNN 8.9 and CUDA 11.8 or newer with cuDNN 8.6": a JAX release's CUDA builds.
std::string jax_build_list(const matrix::JaxRelease& release)
{
    std::vector<std::string> names;
    for (const auto& b : release.builds) {
        if (!b.cuda.min)
            continue;
        bool one_cuda = b.cuda.max && b.cuda.max->text() == b.cuda.min->text();
        names.push_back("CUDA " + b.cuda.min->text() + (one_cuda ? "" : " or newer")
            + (b.cudnn.min ? " with cuDNN " + b.cudnn.min->text() : ""));
    }
    return join_alternatives(names, " and ");
}

Report run(const matrix::Matrix& matrix, const Query& query, bool suggest_alternatives);

// JAX's installation guide at a fixed commit: pip's CUDA wheels, and LD_LIBRARY_PATH overriding them.
constexpr std::string_view jax_install_guide
    = "https://github.com/jax-ml/jax/blob/00528b9858a0a6da2c32434f46fa6ab53149cebc/docs/installation.md";

// The extra whose CUDA build a JAX plugin is: "cuda12" for jax-cuda12-plugin and jax-cuda12-pjrt.
std::string plugin_extra(const FrameworkRequest& plugin)
{
    const std::string_view name = plugin.jax_plugin; // "jax-cuda12-plugin"
    const auto start = name.find('-') + 1;
    return std::string(name.substr(start, name.find('-', start) - start));
}

std::vector<FrameworkRequest> primaries(const Query& query)
{
    std::vector<FrameworkRequest> out;
    const FrameworkRequest* plugin = nullptr; // jax's CUDA half, which names its build
    for (const auto& request : query.frameworks) {
        if (!request.jax_plugin.empty()) {
            plugin = &request;
            continue;
        }
        if (is_companion(request.framework))
            continue;
        auto same = std::find_if(out.begin(), out.end(),
            [&](const FrameworkRequest& other) { return other.framework == request.framework; });
        if (same == out.end()) {
            out.push_back(request);
            continue;
        }
        // jax and jaxlib are one framework, as its two packages: the CUDA build is jaxlib's,
        // whose version may trail jax's (jax 0.3.16 on jaxlib 0.3.15); at the same version a
        // jax extra names it (jax[cuda12]==0.9.0.1 beside jaxlib==0.9.0.1)
        if (same->jaxlib != request.jaxlib) {
            const FrameworkRequest& jax = request.jaxlib ? *same : request;
            const FrameworkRequest& jaxlib = request.jaxlib ? request : *same;
            bool extra_names_build = !jax.extra.empty() && jaxlib.local.empty() && jax.version == jaxlib.version;
            // a labelled jaxlib beside jax's extra of its version comes with what the extra brings
            const std::string brought = jax.version == jaxlib.version && jaxlib.extra.empty() ? jax.extra : "";
            *same = extra_names_build ? jax : jaxlib; // `jax` or `jaxlib` may be *same: read above
            if (!extra_names_build && !brought.empty()) {
                same->extra = brought;
                same->extra_implied = true;
            }
            continue;
        }
        if (same->version != request.version)
            throw Error(ErrorCode::invalid_input,
                "one environment holds one " + std::string(to_string(request.framework)) + ": " + same->text() + " and "
                    + request.text(),
                "name each framework once");
    }
    if (!plugin)
        return out;
    auto jax
        = std::find_if(out.begin(), out.end(), [](const FrameworkRequest& r) { return r.framework == Framework::jax; });
    const std::string extra = plugin_extra(*plugin);
    if (jax == out.end())
        throw Error(ErrorCode::invalid_input,
            plugin->text() + " is the CUDA half of jax[" + extra + "], which checks with jax",
            "name jax beside it (jax[" + extra + "]" + (plugin->version.empty() ? "" : "==" + plugin->version)
                + "), and jaxlib if it is pinned");
    // jax with jax-cuda12-plugin is what jax[cuda12] installs
    if (jax->extra.empty() && jax->local.empty()) {
        jax->extra = extra;
        jax->extra_implied = true;
    }
    return out;
}

// jax refuses at import a jaxlib newer than itself ("jaxlib version X is newer than and
// incompatible with jax version Y", jax/_src/lib/__init__.py) or older than its
// _minimum_jaxlib_version, where both name a release.
void check_jaxlib_pairing(const matrix::Matrix& matrix, const Query& query, Report& report)
{
    const JaxRequests named = jax_requests(query);
    const FrameworkRequest* jax = named.jax;
    const FrameworkRequest* jaxlib = named.jaxlib;
    if (!jax || !jaxlib)
        return;
    const auto jax_version = Pep440Version::parse(jax->version);
    const auto jaxlib_version = Pep440Version::parse(jaxlib->version);
    if (jax_version.release().size() < 3 || jaxlib_version.release().size() < 3)
        return;
    if (jax_version < jaxlib_version) {
        report.add(Verdict::fail, "jaxlib-newer-than-jax",
            "jax " + jax->version + " refuses jaxlib " + jaxlib->version + " at import: \"jaxlib version "
                + jaxlib->version + " is newer than and incompatible with jax version " + jax->version + "\"",
            "https://github.com/jax-ml/jax/blob/00528b9858a0a6da2c32434f46fa6ab53149cebc/jax/_src/lib/__init__.py");
        report.suggest("use jax==" + jaxlib->version + " with jaxlib==" + jaxlib->version);
        return;
    }
    const auto& minimum = matrix.minimum_jaxlib();
    const auto oldest = minimum ? minimum->for_jax(jax_version) : std::nullopt;
    if (!oldest || !(jaxlib_version < *oldest))
        return;
    report.add(Verdict::fail, "jaxlib-older-than-jax-needs",
        "jax " + jax->version + " needs jaxlib " + oldest->public_str() + " or newer: it refuses jaxlib "
            + jaxlib->version + " at import, naming the version it requires",
        minimum->provenance.cite());
    // the first jax release that needs a newer jaxlib than the one asked for
    const auto first_refusing = std::find_if(minimum->rows.begin(), minimum->rows.end(),
        [&](const matrix::JaxJaxlibPair& row) { return jaxlib_version < row.jaxlib; });
    report.suggest("use jaxlib " + oldest->public_str() + " or newer with jax " + jax->version + ", or a jax before "
        + first_refusing->jax.public_str() + " with jaxlib " + jaxlib->version);
}

// The jaxlib a query installs: the one it names, or the one the jax it names installs (its
// own version, or the older one of a release published alone); none where only a line is named.
std::optional<Pep440Version> installed_jaxlib(const matrix::Matrix& matrix, const JaxRequests& named)
{
    for (const auto* request : { named.jaxlib, named.jax }) {
        if (!request)
            continue;
        const auto version = Pep440Version::parse(request->version);
        if (version.release().size() < 3)
            continue;
        return request->jaxlib ? version : matrix.jaxlib_installed_with(version);
    }
    return std::nullopt;
}

// From 0.5.3 jaxlib loads a CUDA plugin of its own version alone, and jax then runs on the
// CPU (jaxlib/plugin_support.py, jax-ml/jax c7ed1bd3a8 "Add version check to jaxlib plugin
// imports"); before it, and for the PJRT package, what another version does is not on record.
void check_jax_plugin_pairing(const matrix::Matrix& matrix, const Query& query, Report& report)
{
    const JaxRequests named = jax_requests(query);
    const auto jaxlib = installed_jaxlib(matrix, named);
    if (!jaxlib)
        return;
    const std::string source
        = "https://github.com/jax-ml/jax/blob/cec06d116c05f0d52adfceee3d3b730fdbcb0ce5/jaxlib/plugin_support.py | "
          "https://github.com/jax-ml/jax/commit/c7ed1bd3a8";
    // the CUDA extra jax or jaxlib is named with, where one is
    const std::string extra = named.jax && !named.jax->extra.empty() ? named.jax->extra
        : named.jaxlib                                               ? named.jaxlib->extra
                                                                     : "";
    for (const auto* named_plugin : named.plugins) {
        const FrameworkRequest& plugin = *named_plugin;
        // "cuda12" of jax[cuda12] or jax[cuda12-local]; jax[cuda], an alias, names no major
        const std::string own = plugin_extra(plugin);
        const bool names_major = extra.size() >= own.size() && extra.starts_with("cuda")
            && std::isdigit(static_cast<unsigned char>(extra[4]));
        if (names_major && !extra.starts_with(own))
            report.add(Verdict::unknown, "jax-plugin-other-cuda",
                plugin.package() + " is CUDA " + own.substr(4) + "'s, beside jax[" + extra
                    + "]: with both CUDA majors' plugins installed, which one jax uses is not on record",
                source);
        // a release line stands for any of its releases
        const auto version = Pep440Version::parse(plugin.version);
        if (version.release().size() < 3 || version.release() == jaxlib->release())
            continue;
        const std::string pair = plugin.package() + " " + plugin.version + " beside jaxlib " + jaxlib->public_str();
        report.suggest("pin " + plugin.package() + "==" + jaxlib->public_str() + ", jaxlib's version");
        bool checked = plugin.jax_plugin.ends_with("-plugin") && !(*jaxlib < Pep440Version::parse("0.5.3"));
        // jax#24901: from 0.4.32 a plugin newer than jax's crashes it at the first array, even on
        // the CPU; before, its PJRT API version mismatch stopped the CUDA backend alone
        if (!checked && *jaxlib < version && !(version < Pep440Version::parse("0.4.32"))) {
            report.add(Verdict::fail, "jax-plugin-newer-than-jaxlib",
                pair
                    + ": a CUDA plugin from 0.4.32 on, newer than jaxlib, crashes jax with a segmentation fault "
                      "at its first array, even with JAX_PLATFORMS=cpu",
                "https://github.com/jax-ml/jax/issues/24901");
            continue;
        }
        if (!checked) {
            report.add(Verdict::unknown, "jax-plugin-version-unchecked",
                pair + ": jaxlib " + jaxlib->public_str()
                    + " does not check that version, and whether the two work together is not on record",
                source);
            continue;
        }
        std::string module = plugin.jax_plugin;
        std::replace(module.begin(), module.end(), '-', '_');
        report.add(Verdict::fail, "jax-plugin-version-mismatch",
            pair + ": jaxlib loads a CUDA plugin of its own version alone (\"JAX plugin " + module + " version "
                + plugin.version + " is installed, but it is not compatible with the installed jaxlib version "
                + jaxlib->public_str() + ", so it will not be used\"), and jax runs on the CPU",
            source);
    }
}

// Several frameworks in one environment: each one's own check, its findings and
// suggestions named after it (framework-build names it already), then whether their CUDA
// libraries can share the environment.
Report run_together(const matrix::Matrix& matrix, const Query& query, const std::vector<FrameworkRequest>& frameworks)
{
    Report report;
    std::vector<FrameworkBuild> builds;
    for (const auto& framework : frameworks) {
        Query own = query;
        own.frameworks = { framework };
        for (const auto& request : query.frameworks)
            if (is_companion(request.framework) && framework.framework == Framework::torch)
                own.frameworks.push_back(request);
        bool pinned = !framework.local.empty();
        auto build = select_framework_build(matrix, framework, pinned ? std::nullopt : query.cuda);
        // one --cuda serves every framework named, so none may set it aside for pip's own
        if (build && build->host_cuda_set_aside)
            throw Error(ErrorCode::invalid_input,
                pip_cuda_contradiction(framework, *build, *query.cuda) + ", which the other frameworks named share",
                "name the CUDA of " + framework.text() + "'s build, or check it on its own");
        Report part = run(matrix, own, true);
        for (auto& finding : part.findings) {
            if (finding.code != "framework-build")
                finding.message = framework.text() + ": " + finding.message;
            report.findings.push_back(std::move(finding));
        }
        for (const auto& suggestion : part.suggestions)
            report.suggest(framework.text() + ": " + suggestion);
        // a CPU-only build loads no CUDA library for the others to share
        if (build && !framework.names_cpu_build())
            builds.push_back(std::move(*build));
    }
    check_coexistence(builds, report);
    return report;
}

// Every other build of the same torch line that works where this one does not.
void suggest_variants(const matrix::Matrix& matrix, const Query& query, const FrameworkRequest& primary,
    const matrix::TorchRelease& release, const std::string& current, Report& report)
{
    for (const auto& variant : release.variants) {
        if (variant.tag == current)
            continue;
        // a build whose wheels carry no label is named by the version alone, as PyPI's default
        const std::string label = variant.unlabelled ? "" : variant.tag;
        Query alternative = query;
        alternative.cuda.reset();
        for (auto& request : alternative.frameworks)
            if (request.framework == Framework::torch)
                request.local = label;
        Report outcome = run(matrix, alternative, false);
        if (outcome.verdict() == Verdict::fail)
            continue;
        report.suggest("use " + variant.tag + " (torch " + primary.version + (label.empty() ? "" : "+" + label)
            + "): " + driver_requirement(matrix, variant.cuda, query.os)
            + (outcome.verdict() == Verdict::warn ? " (works, with warnings)" : ""));
    }
}

// The CUDA a JAX build runs on where the query names none: its range's floor, raised to the
// oldest CUDA of the range that targets every GPU (pip installs the newest CUDA of the range;
// the local extra needs a system CUDA at least that new). Empty where the floor targets them.
std::string raise_jax_cuda(const matrix::Matrix& matrix, const std::vector<GpuTarget>& gpus, FrameworkBuild& build)
{
    std::string why;
    for (const auto& gpu : gpus) {
        const auto* arch = matrix.architecture(gpu.compute_capability);
        if (arch && build.cuda < arch->min_cuda && build.jax_build->cuda.contains(arch->min_cuda)) {
            build.cuda = arch->min_cuda;
            why = "CUDA " + build.cuda.text() + ": the oldest CUDA of its " + build.jax_build->cuda.describe()
                + " range that targets " + gpu.label;
        }
    }
    return why;
}

// A Jetson where upstream wheels of the query's CUDA do not run: its CUDA is its JetPack's, so
// --cuda names that, not a wheel.
bool on_jetpack_cuda(
    const matrix::Matrix& matrix, const std::vector<GpuTarget>& gpus, const std::optional<CudaVersion>& cuda)
{
    return std::any_of(gpus.begin(), gpus.end(), [&](const GpuTarget& gpu) {
        const auto* arch = matrix.architecture(gpu.compute_capability);
        return arch && arch->jetson && !(cuda && runs_upstream_wheels(*arch->jetson, *cuda));
    });
}

// tensorflow-cpu where a GPU stack is named: TensorFlow's CPU build, whatever the GPU. Its GPU
// build is tensorflow-gpu before 2.1, tensorflow from it.
void fail_tensorflow_cpu_package(const matrix::Matrix& matrix, const FrameworkRequest& request, Report& report)
{
    const auto& release = find_release_line(matrix.tensorflow_releases(), request);
    const std::string pinned = request.version.empty() ? "" : "==" + request.version;
    const bool gpu_package = Pep440Version::parse(release.line) < Pep440Version::parse("2.1");
    const std::string gpu_build = (gpu_package ? "tensorflow-gpu" : "tensorflow") + pinned;
    report.add(Verdict::fail, "framework-no-cuda-build",
        "tensorflow-cpu" + pinned + " is TensorFlow's CPU-only build, with no CUDA; its GPU build is " + gpu_build,
        release.provenance.cite());
    report.suggest("use " + gpu_build
        + (release.pip_extra.empty() ? ""
                                     : ", or tensorflow[" + release.pip_extra + "]" + pinned + " for CUDA from pip"));
}

// jax[cpu] where a GPU stack is named: jaxlib alone, which runs on the CPU whatever the GPU.
void fail_jax_cpu_build(const matrix::Matrix& matrix, const FrameworkRequest& request, Report& report)
{
    const FrameworkBuild build = select_cpu_build(matrix, request);
    report.add(Verdict::fail, "framework-no-cuda-build",
        request.text() + " is the CPU-only build of jax " + request.version
            + " (jaxlib alone), with no CUDA; its CUDA builds: " + jax_build_list(*build.jax),
        matrix.jax_cpu_extra() ? matrix.jax_cpu_extra()->provenance.cite() : build.provenance.cite());
    for (const auto& b : build.jax->builds)
        if (!b.extra.empty())
            report.suggest(
                "use jax[" + b.extra + "]==" + request.version + ", its CUDA " + b.cuda.describe() + " build");
}

// A JAX extra that brings its CUDA from pip loads that, not the host's: the stack is judged as if
// no host CUDA (nor its cuDNN) were named, and says so (JAX's guide: keep LD_LIBRARY_PATH unset,
// or the host's libraries come first).
Report run_on_pip_cuda(const matrix::Matrix& matrix, const Query& query, const FrameworkRequest& primary,
    const FrameworkBuild& build, bool suggest_alternatives)
{
    Query pip = query;
    pip.cuda.reset();
    pip.cudnn.reset();
    Report report = run(matrix, pip, suggest_alternatives);
    const std::string host
        = "the host's CUDA " + query.cuda->text() + (query.cudnn ? " and cuDNN " + query.cudnn->text() : std::string());
    Finding aside { .code = "jax-pip-cuda-beside-host",
        .verdict = Verdict::ok,
        .message = primary.text() + " brings CUDA " + build.jax_build->cuda.describe()
            + " from pip and loads that, not " + host
            + ", unless LD_LIBRARY_PATH puts the host's libraries first (JAX's guide: keep it unset)",
        .why = std::string(jax_install_guide) };
    auto after_build = std::find_if(
        report.findings.begin(), report.findings.end(), [](const Finding& f) { return f.code == "framework-build"; });
    report.findings.insert(after_build == report.findings.end() ? after_build : after_build + 1, std::move(aside));
    return report;
}

Report run(const matrix::Matrix& matrix, const Query& query, bool suggest_alternatives)
{
    Report report;
    Context ctx { matrix, query, {}, std::nullopt, query.cuda };
    for (const auto& gpu : query.gpus)
        ctx.gpus.push_back(resolve_gpu(matrix, gpu));

    std::optional<FrameworkRequest> primary;
    for (const auto& request : query.frameworks) {
        if (!is_companion(request.framework) && !primary)
            primary = request;
        if (is_companion(request.framework))
            refuse_unpublished_companion(matrix, request);
    }
    if (!primary)
        for (const auto& request : query.frameworks)
            if (auto torch = torch_for_companion(matrix, request); torch && !primary)
                primary = torch;
    if (!primary)
        for (const auto& request : query.frameworks)
            if (is_companion(request.framework))
                refuse_unknown_companion_alone(matrix, request);

    // torch's +cpu, jax[cpu] and tensorflow-cpu (judged as its GPU build where no GPU stack is
    // named; torch's label fails below where one is)
    const bool cpu_build = primary && primary->names_cpu_build();
    if (cpu_build && names_gpu_stack(query) && primary->framework != Framework::torch) {
        if (primary->framework == Framework::jax)
            fail_jax_cpu_build(matrix, *primary, report);
        else
            fail_tensorflow_cpu_package(matrix, *primary, report);
        return report;
    }
    if (cpu_build && !names_gpu_stack(query) && primary->framework != Framework::tensorflow) {
        ctx.build = select_cpu_build(matrix, *primary);
        report.add(Verdict::ok, "framework-build",
            primary->text() + " runs as " + ctx.build->name()
                + ", the CPU-only build, with no CUDA: no GPU, driver or CUDA is named, so it runs as asked",
            ctx.build->provenance.cite());
        check_framework(ctx, report);
        check_host_os(ctx, report);
        return report;
    }
    if (primary) {
        bool source = primary->names_source_build(); // its CUDA is whatever --cuda says
        bool pinned = !primary->local.empty() && !source;
        bool jetpack_cuda = !source && on_jetpack_cuda(matrix, ctx.gpus, query.cuda);
        ctx.build = select_framework_build(matrix, *primary, pinned || jetpack_cuda ? std::nullopt : query.cuda);
        if (!ctx.build) {
            // an extra the release never had refuses the request whatever the CUDA asked
            if (auto any_cuda = primary->extra.empty() ? std::nullopt : select_framework_build(matrix, *primary, {}))
                require_known_extra(*any_cuda, primary->text(), "[" + primary->extra + "]");
            const auto* release = primary->framework == Framework::torch
                ? &find_release_line(matrix.torch_releases(), *primary)
                : nullptr;
            const auto* jax_release
                = primary->framework == Framework::jax ? &find_release_line(matrix.jax_releases(), *primary) : nullptr;
            std::string wanted = pinned ? primary->local : "CUDA " + query.cuda->text();
            std::string name = primary->package() + " " + primary->version;
            std::string builds = release ? "builds: " + variant_list(*release) : "";
            if (jax_release && pinned)
                builds = "CUDA builds: " + jax_build_list(*jax_release);
            const std::string other = pinned ? non_cuda_build(*primary) : "";
            // a label no build of the release has is a wheel never published; a nightly's builds
            // are not the release's
            if (pinned && other.empty() && !primary->is_pre_release())
                throw Error(ErrorCode::invalid_input, primary->text() + ": " + name + " has no " + wanted + " build",
                    "its " + builds + ": " + pin_a_build);
            report.add(Verdict::fail, "framework-no-cuda-build",
                !other.empty() ? name + "+" + primary->local + " is " + other + ", with no CUDA; its CUDA " + builds
                               : name + " has no " + wanted + " build" + (builds.empty() ? "" : "; its " + builds),
                release ? release->provenance.cite() : "");
            if (release && suggest_alternatives)
                suggest_variants(matrix, query, *primary, *release, "", report);
            // a JAX build that brings its CUDA from pip runs beside the host's
            if (jax_release && !pinned && suggest_alternatives)
                for (const auto& b : jax_release->builds)
                    if (b.pip_cuda)
                        report.suggest("use jax[" + b.extra + "]==" + primary->version
                            + ", whose pip wheels bring CUDA " + b.cuda.describe() + " whatever the host has");
            return report;
        }
        require_known_extra(*ctx.build, primary->text(), "[" + primary->extra + "]");
        if (ctx.build->host_cuda_set_aside)
            return run_on_pip_cuda(matrix, query, *primary, *ctx.build, suggest_alternatives);
        refuse_unpublished_on_windows(matrix, query, *primary, *ctx.build, pinned);
        std::string raised = ctx.build->jax_build && !query.cuda ? raise_jax_cuda(matrix, ctx.gpus, *ctx.build) : "";
        ctx.cuda = jetpack_cuda && query.cuda ? *query.cuda : ctx.build->cuda;
        report.add(Verdict::ok, "framework-build",
            primary->text() + " runs as " + ctx.build->name() + ": CUDA " + ctx.build->cuda.text()
                + (ctx.build->cudnn ? ", cuDNN " + ctx.build->cudnn->text() : "") + torch_nccl_text(*ctx.build)
                + default_build_note(matrix, query, *ctx.build) + (raised.empty() ? "" : " (" + raised + ")")
                + (ctx.build->provenance.unconfirmed() ? " (unconfirmed)" : ""),
            ctx.build->provenance.cite());
        if (query.os == HostOs::windows_native && ctx.build->torch_variant)
            use_platform_wheel_code(*ctx.build, ctx.build->torch_variant->windows);
        const std::string judged
            = "judged by the facts of " + primary->package() + " " + Pep440Version::parse(primary->version).base_str();
        if (ctx.build->from_source)
            report.add(Verdict::warn, "framework-source-build",
                primary->text() + " is a build from source (its label '" + primary->local
                    + "', as NVIDIA's containers and Jetson wheels carry): " + judged + " with CUDA "
                    + ctx.build->cuda.text()
                    + (query.cuda ? "" : ", its PyPI build's (give --cuda for the one it was built with)")
                    + "; its cuDNN, NCCL and GPU code are its builder's, not on record",
                ctx.build->provenance.cite());
        else if (primary->is_pre_release())
            report.add(Verdict::warn, "framework-pre-release",
                primary->text() + " is a pre-release, " + judged
                    + ": a pre-release's builds and pins may differ from its release's",
                ctx.build->provenance.cite());
    }

    check_framework(ctx, report);
    if (check_host_os(ctx, report)) {
        check_driver(ctx, report);
        check_gpus(ctx, report);
        check_cudnn(ctx, report);
    }

    if (suggest_alternatives && report.verdict() == Verdict::fail && ctx.build && ctx.build->torch)
        suggest_variants(matrix, query, *primary, *ctx.build->torch, ctx.build->variant, report);
    return report;
}

// A GPU of another vendor (an AMD Radeon or Instinct, an Intel Arc) runs no CUDA build: that is
// the answer for it, and the rest of the query is judged without it.
std::vector<Finding> set_aside_other_vendors(Query& query)
{
    std::vector<Finding> out;
    std::erase_if(query.gpus, [&](const std::string& text) {
        const auto vendor = other_vendor(text);
        if (vendor)
            out.push_back({ .code = "gpu-not-nvidia",
                .verdict = Verdict::fail,
                .message = "'" + text + "' is an " + std::string(vendor->name)
                    + " GPU: CUDA builds run on NVIDIA GPUs only, and it runs " + std::string(vendor->builds)
                    + ", which dlenv does not judge",
                .why = "https://developer.nvidia.com/cuda-gpus",
                .subject = text });
        return vendor.has_value();
    });
    return out;
}

// "11.8.89", as nvcc -V ("V11.8.89") and PyTorch's collect_env ("CUDA runtime version") print a
// CUDA from 11.0 on: a component's build number, past any update of its line (those number 0
// to 4), which names the line. The line's releases judge it, and it says so; before 11.0 such
// numbers named the toolkits themselves (10.1.243), which the matrix lists.
std::optional<Finding> read_component_cuda(const matrix::Matrix& matrix, Query& query)
{
    constexpr std::uint32_t first_build_number = 10;
    if (!query.cuda || query.cuda->parts().size() != 3 || query.cuda->parts()[2] < first_build_number
        || !matrix.toolkit_releases(*query.cuda).empty())
        return std::nullopt;
    const CudaVersion line = query.cuda->truncated(2);
    if (matrix.toolkit_releases(line).empty())
        return std::nullopt;
    Finding read { .code = "cuda-component-version",
        .verdict = Verdict::ok,
        .message = "CUDA " + query.cuda->text() + " reads as CUDA " + line.text()
            + ": a number past the line's updates is a component's build, as nvcc -V (V" + query.cuda->text()
            + ") and collect_env's CUDA runtime print it",
        .why = "https://developer.download.nvidia.com/compute/cuda/redist/" };
    query.cuda = line;
    return read;
}

} // namespace

Report check(const matrix::Matrix& matrix, const Query& whole)
{
    Query asked = whole;
    const std::vector<Finding> other_vendors = set_aside_other_vendors(asked);
    const std::optional<Finding> component = read_component_cuda(matrix, asked);
    auto [with_driver, branch] = read_driver_branch(matrix, asked);
    auto [named, newest] = read_newest_releases(matrix, with_driver);
    Query query = named;
    validate_versions(matrix, query);
    auto frameworks = primaries(query);
    // one request per framework (of jax and jaxlib, the one that names the build), then companions
    std::vector<FrameworkRequest> asked_once = frameworks;
    for (const auto& request : query.frameworks)
        if (is_companion(request.framework))
            asked_once.push_back(request);
    query.frameworks = asked_once;
    auto answer = [&](const Query& q) {
        return frameworks.size() > 1 ? run_together(matrix, q, frameworks) : run(matrix, q, true);
    };
    Report report = answer(query);
    check_jaxlib_pairing(matrix, named, report);
    check_jax_plugin_pairing(matrix, named, report);
    report.findings.insert(report.findings.begin(), other_vendors.begin(), other_vendors.end());
    if (component)
        report.findings.insert(report.findings.begin(), *component);
    report.findings.insert(report.findings.begin(), newest.begin(), newest.end());
    if (!branch)
        return report;
    report.findings.insert(report.findings.begin(), branch->finding);
    // the branch's newest release stands for it; where its first releases fail, say so
    if (branch->oldest && report.verdict() != Verdict::fail) {
        Query early = query;
        early.driver = branch->oldest;
        Report first = answer(early);
        auto failure = std::find_if(
            first.findings.begin(), first.findings.end(), [](const Finding& f) { return f.verdict == Verdict::fail; });
        if (failure != first.findings.end())
            report.add(Verdict::warn, "driver-branch-early-release",
                "not every " + std::to_string(*asked.driver_branch) + " release runs it: " + failure->message,
                failure->why);
    }
    return report;
}

} // namespace dlenv::resolve
