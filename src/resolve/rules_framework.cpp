#include "resolve/rules.h"

#include "core/closest.h"
#include "core/error.h"

#include <algorithm>

namespace dlenv::resolve {
namespace {

// True when `pythons` names `python`'s minor (3.13 for 3.13.1).
bool names_python(const std::vector<PythonVersion>& pythons, const PythonVersion& python)
{
    return std::any_of(
        pythons.begin(), pythons.end(), [&](const PythonVersion& v) { return python.compare_truncated(v) == 0; });
}

// CPython supports its free-threaded build from 3.14 (PEP 779); 3.13's was experimental (PEP 703).
bool cpython_free_threaded_experimental(const PythonVersion& python)
{
    return python.truncated(2) < PythonVersion::parse("3.14");
}

// A free-threaded CPython ("3.13t") loads only wheels built for its ABI (cp313t): torch ships
// them from 2.6, experimental in PyTorch's words (from 2.9 only the newest); JAX from a 0.5-0.7
// release (3.13t, which it calls experimental, to 0.10; 3.14t on); TensorFlow none, through the
// newest line on record.
// A free-threaded Python on native Windows, where the framework's free-threaded wheels are
// those of other systems (`elsewhere`) alone.
void fail_free_threaded_on_windows(const FrameworkBuild& build, const PythonVersion& python,
    const std::string& elsewhere, const std::string& holder, const std::string& source, Report& report)
{
    report.add(Verdict::fail, "python-free-threaded-unsupported",
        build.name() + "'s wheels for the free-threaded Python " + python.truncated(2).text() + "t are " + elsewhere
            + " ones: " + holder + " has none for Windows",
        source);
    report.suggest("use Python " + python.truncated(2).text() + " (with the GIL) with " + build.name()
        + " on Windows, or run it under WSL 2");
}

void check_free_threaded(const Context& ctx, const PythonVersion& python, Report& report)
{
    const FrameworkBuild& build = *ctx.build;
    const std::string wanted = python.truncated(2).text() + "t";
    if (!build.python_free_threaded) {
        report.add(Verdict::unknown, "python-free-threaded-unknown",
            "whether " + build.name() + " ships wheels for the free-threaded Python " + wanted + " is not on record",
            build.provenance.cite());
        return;
    }
    std::vector<std::string> shipped;
    for (const auto& v : *build.python_free_threaded)
        shipped.push_back(v.text() + "t");
    const bool listed = names_python(*build.python_free_threaded, python);
    const std::string source = build.torch ? build.torch->provenance.cite()
        : build.tensorflow                 ? ctx.matrix.tensorflow_free_threaded()->provenance.cite()
                                           : build.provenance.cite();
    if (!listed) {
        report.add(Verdict::fail, "python-free-threaded-unsupported",
            build.name() + " ships no wheels for the free-threaded Python " + wanted
                + (shipped.empty() ? "" : " (its free-threaded wheels: " + join_alternatives(shipped, " and ") + ")"),
            source);
        return;
    }
    if (build.framework == Framework::jax) {
        const auto* windows = windows_gpu_support(ctx.matrix, build.framework);
        if (ctx.query.os == HostOs::windows_native && windows && windows->free_threaded_wheels == false) {
            fail_free_threaded_on_windows(build, python, "Linux and macOS", "jax", windows->provenance.cite(), report);
            return;
        }
        const bool experimental = cpython_free_threaded_experimental(python);
        report.add(experimental ? Verdict::warn : Verdict::ok, "python-free-threaded",
            build.name() + " ships wheels for the free-threaded Python " + wanted
                + (experimental ? ", an experimental build in JAX's words (CPython supports its free-threaded "
                                  "build from 3.14)"
                                : ""),
            source);
        return;
    }
    const auto windows = build.torch->python_free_threaded_windows;
    if (ctx.query.os == HostOs::windows_native && windows == false) {
        fail_free_threaded_on_windows(build, python, "Linux", "it", source, report);
        return;
    }
    if (ctx.query.os == HostOs::windows_native && !windows)
        report.add(Verdict::unknown, "python-free-threaded-windows-unknown",
            "whether " + build.name() + "'s wheels for the free-threaded Python " + wanted
                + " include Windows ones is not on record",
            source);
    const auto& experimental = build.torch->python_free_threaded_experimental;
    const bool cpython_experimental = cpython_free_threaded_experimental(python);
    if (experimental && !names_python(*experimental, python)) {
        report.add(cpython_experimental ? Verdict::warn : Verdict::ok, "python-free-threaded",
            build.name() + " ships wheels for the free-threaded Python " + wanted
                + ", which PyTorch no longer calls experimental"
                + (cpython_experimental ? "; CPython's own " + wanted + " build is experimental (PEP 703)" : ""),
            source);
        return;
    }
    report.add(Verdict::warn, "python-free-threaded",
        build.name() + " ships wheels for the free-threaded Python " + wanted
            + ", which PyTorch supports experimentally",
        source);
}

// The oldest torch line `wanted` holds for.
template <typename Predicate>
std::optional<std::string> first_torch_line(const matrix::Matrix& matrix, Predicate wanted)
{
    const matrix::TorchRelease* first = nullptr;
    for (const auto& release : matrix.torch_releases())
        if (wanted(release) && (!first || Pep440Version::parse(release.line) < Pep440Version::parse(first->line)))
            first = &release;
    return first ? std::optional(first->line) : std::nullopt;
}

// The oldest torch line that supports `python` outright.
std::optional<std::string> first_torch_supporting(const matrix::Matrix& matrix, const PythonVersion& python)
{
    return first_torch_line(
        matrix, [&](const matrix::TorchRelease& release) { return release.python.contains(python); });
}

// The oldest torch line newer than `after` whose torch.compile runs on `python`.
std::optional<std::string> first_torch_compiling(
    const matrix::Matrix& matrix, const PythonVersion& python, const std::string& after)
{
    return first_torch_line(matrix, [&](const matrix::TorchRelease& release) {
        return release.python.contains(python) && !names_python(release.python_without_compile, python)
            && Pep440Version::parse(after) < Pep440Version::parse(release.line);
    });
}

// A torch line may ship wheels for a Python its torch.compile refuses (Dynamo comes to a new
// Python a release or two after the wheels): eager mode runs, torch.compile raises.
void check_compile_python(const Context& ctx, const PythonVersion& python, Report& report)
{
    const auto* torch = ctx.build->torch;
    if (!torch)
        return;
    if (!names_python(torch->python_without_compile, python))
        return;
    const std::string minor = python.truncated(2).text();
    const auto line = first_torch_compiling(ctx.matrix, python, torch->line);
    report.add(Verdict::warn, "torch-compile-unsupported-python",
        ctx.build->name() + " runs on Python " + minor + " in eager mode, but its torch.compile refuses Python " + minor
            + " with a RuntimeError" + (line ? "; torch " + *line + " compiles on it" : ""),
        torch->provenance.cite());
}

void check_python(const Context& ctx, Report& report)
{
    const auto& python = ctx.query.python;
    if (!python || !ctx.build)
        return;
    if (ctx.query.free_threaded)
        check_free_threaded(ctx, *python, report);
    if (ctx.build->python.contains(*python)) {
        check_compile_python(ctx, *python, report);
        return;
    }
    if (names_python(ctx.build->python_experimental, *python)) { // only torch lines list any
        const bool off_linux = ctx.query.os == HostOs::windows_native || ctx.query.os == HostOs::macos;
        if (off_linux && ctx.build->torch->python_experimental_linux_only == true) {
            report.add(Verdict::fail, "python-unsupported",
                ctx.build->name() + " has no Python " + python->text() + " wheels for "
                    + (ctx.query.os == HostOs::macos ? "macOS" : "Windows")
                    + ": its support of it is experimental, and on Linux only",
                ctx.build->torch->provenance.cite());
            const auto line = first_torch_supporting(ctx.matrix, *python);
            report.suggest("use Python " + ctx.build->python.describe() + " with " + ctx.build->name()
                + (line ? ", or torch >= " + *line + " with Python " + python->text() : ""));
            return;
        }
        report.add(Verdict::warn, "python-experimental",
            ctx.build->name() + " supports Python " + ctx.build->python.describe() + "; its support of "
                + python->text() + " is experimental",
            ctx.build->torch->provenance.cite());
        check_compile_python(ctx, *python, report);
        return;
    }
    report.add(Verdict::fail, "python-unsupported",
        ctx.build->name() + " supports Python " + ctx.build->python.describe() + ", not " + python->text(),
        ctx.build->provenance.cite());
    report.suggest("use Python " + ctx.build->python.describe() + " with " + ctx.build->name());
}

void suggest_tensorflow_for_host_cuda(const Context& ctx, const CudaVersion& host, Report& report)
{
    for (const auto& other : ctx.matrix.tensorflow_releases())
        if (other.cuda.major() == host.major() && other.cuda.minor() == host.minor())
            report.suggest("tensorflow " + other.line + " is tested with CUDA " + other.cuda.text() + " and cuDNN "
                + other.cudnn.text());
}

// TensorFlow loads the CUDA libraries of the version it was built with by soname. From CUDA
// 11 on the sonames carry the major only (libcudart.so.11.0 for every 11.x); CUDA 10's carry
// the minor (libcudart.so.10.1), so 10.2 does not have what a CUDA 10.1 build loads. One
// library broke the rule: 11.0's cuSOLVER is libcusolver.so.10, and 11.1 on ship only
// libcusolver.so.11, so a CUDA 11.0 build (TensorFlow 2.4) finds no cuSOLVER on a later 11.x,
// and a later 11.x build (TensorFlow 2.5 on) none on 11.0.
void check_tensorflow_cuda(const Context& ctx, const FrameworkBuild& build, const CudaVersion& host, Report& report)
{
    if (host.major() != build.cuda.major()) {
        report.add(Verdict::fail, "framework-cuda-untested",
            build.name() + " was built and tested with CUDA " + build.cuda.text() + "; CUDA " + host.text()
                + " is another major version, whose libraries it does not load",
            build.provenance.cite());
        suggest_tensorflow_for_host_cuda(ctx, host, report);
    } else if (host.minor() != build.cuda.minor() && build.cuda.major() < 11) {
        report.add(Verdict::fail, "framework-cuda-untested",
            build.name() + " was built with CUDA " + build.cuda.text() + " and loads its libraries by their minor's "
                + "names (libcudart.so." + build.cuda.truncated(2).text() + "), which CUDA " + host.text()
                + " does not have",
            build.provenance.cite());
        suggest_tensorflow_for_host_cuda(ctx, host, report);
    } else if (build.cuda.major() == 11 && (build.cuda.minor() == 0) != (host.minor() == 0)) {
        const auto cusolver = [](const CudaVersion& cuda) {
            return std::string(cuda.minor() == 0 ? "libcusolver.so.10" : "libcusolver.so.11");
        };
        report.add(Verdict::fail, "framework-cuda-untested",
            build.name() + " was built with CUDA " + build.cuda.text() + " and loads its cuSOLVER as "
                + cusolver(build.cuda) + ", which CUDA " + host.text() + " does not have (it ships " + cusolver(host)
                + ")",
            build.cuda.minor() == 0 ? "https://github.com/tensorflow/tensorflow/issues/48498"
                                    : "https://github.com/tensorflow/tensorflow/issues/43947");
        suggest_tensorflow_for_host_cuda(ctx, host, report);
    } else if (host.minor() != build.cuda.minor()) {
        report.add(Verdict::warn, "framework-cuda-untested",
            build.name() + " was tested with CUDA " + build.cuda.text() + ", not " + host.text(),
            build.provenance.cite());
    }
}

// The extra of `build` that loads the host's CUDA: its local one, or the only one before JAX
// brought CUDA from pip.
std::string host_cuda_extra(const matrix::JaxBuild& build)
{
    return build.pip_cuda || build.extra.empty() ? build.local_extra : build.extra;
}

// ptxas releases XLA knows to miscompile its code, and warns of at run time: before 11.1 on every
// GPU (its asm_compiler.cc: "ptxas before 11.1 is known to miscompile XLA code, leading to
// incorrect results or invalid-address errors", jax#10083), and 12.x before 12.6.3 on compute
// capability 9.0 and newer (NVIDIA bug 4826023, openxla/xla#19927).
struct PtxasMiscompile {
    CudaVersion from;
    CudaVersion below;
    std::optional<ComputeCapability> from_capability; // none: every GPU
    std::string_view source;
};

// Parsed on first use, not at every start-up.
const std::vector<PtxasMiscompile>& ptxas_miscompiles()
{
    static const std::vector<PtxasMiscompile> known {
        { CudaVersion::parse("1.0"), CudaVersion::parse("11.1"), std::nullopt,
            "https://github.com/jax-ml/jax/issues/10083" },
        { CudaVersion::parse("12.0"), CudaVersion::parse("12.6.3"), ComputeCapability::parse("9.0"),
            "https://github.com/openxla/xla/pull/19927" },
    };
    return known;
}

// A JAX build that loads the host's CUDA compiles its kernels with that toolkit's ptxas.
void check_jax_host_ptxas(const Context& ctx, const CudaVersion& host, Report& report)
{
    for (const auto& known : ptxas_miscompiles()) {
        if (host < known.from || !(host < known.below))
            continue;
        std::vector<std::string> hit;
        for (const auto& gpu : ctx.gpus)
            if (!known.from_capability || !(gpu.compute_capability < *known.from_capability))
                hit.push_back(gpu.label);
        if (known.from_capability && hit.empty())
            continue;
        // a host CUDA named by its line alone (12.6) may be an update release before the fix
        const std::string which = host.is_prefix_of(known.below)
            ? "CUDA " + host.text() + "'s before " + known.below.text()
            : "CUDA " + host.text() + "'s";
        report.add(Verdict::warn, "xla-ptxas-miscompile",
            "XLA compiles " + ctx.build->name() + "'s kernels with the host's ptxas, and " + which
                + " is known to miscompile XLA code"
                + (known.from_capability ? " on compute capability " + known.from_capability->text() + " and newer ("
                            + join_alternatives(hit, " and ") + ")"
                                         : std::string())
                + ", giving wrong results: XLA warns to upgrade to CUDA " + known.below.text() + " or newer",
            std::string(known.source));
        report.suggest("install CUDA >= " + known.below.text() + " on the host, or put its ptxas on PATH");
    }
}

// An extra that loads the CUDA installed on the host (jax[cuda12_local], or any before 0.4.7),
// like a CUDA jaxlib named by its label alone, needs one in its build's range: name the
// release's build that fits, else the range.
void check_jax_host_cuda(const Context& ctx, const FrameworkRequest& request, Report& report)
{
    const FrameworkBuild& build = *ctx.build;
    const matrix::JaxBuild& jax = *build.jax_build;
    const CudaVersion& host = *ctx.query.cuda;
    if (!build.loads_host_cuda)
        return;
    if (jax.cuda.contains(host)) {
        check_jax_host_ptxas(ctx, host, report);
        return;
    }
    report.add(Verdict::fail, "jax-host-cuda-outside-build",
        request.text() + " loads the CUDA installed on the host, and needs CUDA " + jax.cuda.describe() + " there, not "
            + host.text(),
        build.provenance.cite());
    for (const auto& other : build.jax->builds)
        if (other.cuda.contains(host) && !host_cuda_extra(other).empty()) {
            report.suggest("use jax[" + host_cuda_extra(other) + "]==" + request.version + ", its build for CUDA "
                + other.cuda.describe());
            return;
        }
    report.suggest("install CUDA " + jax.cuda.describe() + " on the host"
        + (jax.pip_cuda ? ", or use jax[" + jax.extra + "], whose pip wheels bring their CUDA" : ""));
}

// Before 2.1 TensorFlow's GPU build is the tensorflow-gpu package and tensorflow the CPU one,
// but for 1.15.0, whose tensorflow carried both (tensorflow#36347: "1.15.2 uses tensorflow_gpu
// for GPU and tensorflow for CPU"); tensorflow-cpu is always the CPU one. The rows are the GPU
// builds: say which package that is.
void check_tensorflow_package(const FrameworkRequest& request, Report& report)
{
    if (request.tensorflow_package == TensorflowPackage::cpu) {
        const std::string pinned = request.version.empty() ? "" : "==" + request.version;
        report.add(Verdict::ok, "tensorflow-cpu-package",
            "tensorflow-cpu is TensorFlow's CPU-only build: tensorflow-cpu" + pinned
                + " runs without the GPU, and what is judged here is tensorflow" + pinned
                + ", its GPU build, whose Pythons and platforms its wheels share",
            "https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/install/pip.md");
        return;
    }
    const auto version = Pep440Version::parse(request.version); // 1.15 reads as 1.15.0
    if (request.tensorflow_package == TensorflowPackage::gpu || !(version < Pep440Version::parse("2.1"))
        || version == Pep440Version::parse("1.15.0"))
        return;
    report.add(Verdict::ok, "tensorflow-cpu-package",
        "before 2.1 the tensorflow package is the CPU build: " + request.text()
            + " runs without the GPU, and what is judged here is tensorflow-gpu==" + request.version
            + ", its GPU build",
        "https://github.com/tensorflow/tensorflow/issues/36347");
}

// The newest JAX release whose setup.py has the extra alias `name`.
std::optional<Pep440Version> last_release_with_alias(const matrix::Matrix& matrix, const std::string& name)
{
    std::optional<Pep440Version> last;
    for (const auto& release : matrix.jax_releases())
        for (const auto& alias : release.extra_aliases)
            if (alias.name == name && (!last || *last < release.versions.back()))
                last = release.versions.back();
    return last;
}

// An extra written by another name its setup.py gives it (jax[cuda]): say which it is judged
// as, and where the name is deprecated, until when it lasts.
void check_jax_extra_alias(const Context& ctx, const FrameworkRequest& request, Report& report)
{
    const FrameworkBuild& build = *ctx.build;
    const matrix::JaxExtraAlias& alias = *build.extra_alias;
    const std::string judged
        = request.text() + " is judged as jax[" + alias.means + "]: jax " + build.release() + "'s setup.py";
    if (!alias.deprecated) {
        const std::string& default_extra = build.jax->builds.front().extra;
        report.add(Verdict::ok, "jax-extra-alias",
            judged + " gives '" + alias.name + "' the same CUDA requirements"
                + (alias.means == default_extra ? "" : " (its default is jax[" + default_extra + "])"),
            alias.provenance.cite());
        return;
    }
    const auto last = last_release_with_alias(ctx.matrix, alias.name);
    report.add(Verdict::warn, "jax-extra-deprecated",
        judged + " keeps '" + alias.name + "' as its deprecated alias"
            + (last ? " (jax " + last->public_str() + " is the last release with it)" : ""),
        alias.provenance.cite());
    report.suggest("write jax[" + alias.means + "]" + (request.version.empty() ? "" : "==" + request.version));
}

// `--cuda` next to a pinned build means the host's toolkit, used to build extensions.
void check_extension_toolkit(const Context& ctx, const FrameworkRequest& request, Report& report)
{
    if (!ctx.query.cuda || !ctx.build)
        return;
    const FrameworkBuild& build = *ctx.build;
    const CudaVersion& host = *ctx.query.cuda;
    if (build.framework == Framework::tensorflow) {
        check_tensorflow_cuda(ctx, build, host, report);
        return;
    }
    if (build.framework != Framework::torch || request.local.empty())
        return;
    if (host.major() != build.cuda.major())
        report.add(Verdict::fail, "cpp-extension-cuda-mismatch",
            "extensions built with the host's CUDA " + host.text() + " fail against " + build.name()
                + ": torch.utils.cpp_extension refuses a CUDA major other than the " + build.cuda.text()
                + " torch was built with (torch itself runs, on its own CUDA libraries)",
            build.provenance.cite());
    else if (host.minor() != build.cuda.minor())
        report.add(Verdict::warn, "cpp-extension-cuda-minor",
            "extensions built with the host's CUDA " + host.text() + " against " + build.name() + " (CUDA "
                + build.cuda.text() + ") get a minor-version mismatch warning from torch.utils.cpp_extension",
            build.provenance.cite());
}

const matrix::CompanionSet* companion_set(const FrameworkBuild& build)
{
    Pep440Version torch = build.version ? *build.version : build.torch->versions.back();
    for (const auto& set : build.torch->companions)
        if (set.torch == torch)
            return &set;
    return nullptr;
}

void check_companion(const Context& ctx, const FrameworkRequest& request, Report& report)
{
    const FrameworkBuild& build = *ctx.build;
    const bool vision = request.framework == Framework::torchvision;
    const std::string name(to_string(request.framework));
    auto pick = [&](const matrix::CompanionSet& set) { return vision ? set.torchvision : set.torchaudio; };
    auto wanted = Pep440Version::parse(request.version);
    auto matches = [&](const std::optional<Pep440Version>& have) {
        if (!have)
            return false;
        const auto& a = wanted.release();
        const auto& b = have->release();
        return a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin());
    };

    // A torch release may have had two companion releases (torchvision 0.8.0 and its 0.8.1 fix
    // for torch 1.7.0): each set of that release pairs.
    const matrix::CompanionSet* own = companion_set(build);
    std::vector<const matrix::CompanionSet*> candidates;
    for (const auto& set : build.torch->companions)
        if (!build.version || set.torch == *build.version)
            candidates.push_back(&set);
    for (const auto* set : candidates)
        if (matches(pick(*set))) {
            report.add(Verdict::ok, "companion-paired",
                name + " " + pick(*set)->str() + " is built for torch " + set->torch.str(), set->provenance.cite());
            return;
        }

    // torchaudio from 2.11 is built on PyTorch's stable ABI: it runs with the torch of its own
    // major.minor and every later one (its CUDA major is check_companion_build's to judge)
    if (!vision && on_torchaudio_stable_abi(ctx.matrix, wanted)) {
        const Pep440Version torch = build.version ? *build.version : build.torch->versions.back();
        auto minor_of = [](const Pep440Version& v) { return std::pair { v.release()[0], v.release()[1] }; };
        if (minor_of(wanted) <= minor_of(torch)) {
            report.add(Verdict::ok, "companion-stable-abi",
                name + " " + request.version + " is built on PyTorch's stable ABI and runs with torch "
                    + std::to_string(minor_of(wanted).first) + "." + std::to_string(minor_of(wanted).second)
                    + " and every later release, " + build.name() + " among them",
                ctx.matrix.torchaudio_stable_abi()->provenance.cite());
            return;
        }
    }
    // Built for some other torch: name it, and the companion this torch needs.
    for (const auto& release : ctx.matrix.torch_releases())
        for (const auto& set : release.companions)
            if (matches(pick(set))) {
                report.add(Verdict::fail, "companion-mismatch",
                    name + " " + pick(set)->str() + " is built for torch " + set.torch.str()
                        + " and cannot be used with " + build.name()
                        + " (companion binaries are compiled against one torch release)",
                    set.provenance.cite());
                if (own && pick(*own))
                    report.suggest("use " + name + " " + pick(*own)->str() + " with torch " + own->torch.str());
                return;
            }
    throw Error(ErrorCode::invalid_input, name + " " + request.version + " is not a release the matrix knows",
        own && pick(*own) ? "torch " + own->torch.str() + " pairs with " + name + " " + pick(*own)->str()
                          : "check the version");
}

// A torch line's experimental Python may have torch wheels alone: torch 2.5 shipped 3.13 wheels,
// torchvision 0.20 and torchaudio 2.5 none (their 3.13 wheels came with torch 2.6).
void check_companion_python(const Context& ctx, const FrameworkRequest& request, Report& report)
{
    const auto& python = ctx.query.python;
    const auto* torch = ctx.build->torch;
    if (!python || ctx.build->python.contains(*python) || !names_python(torch->python_experimental, *python)
        || torch->python_experimental_companions != false)
        return;
    const std::string name(to_string(request.framework));
    const auto line = first_torch_supporting(ctx.matrix, *python);
    report.add(Verdict::fail, "python-unsupported",
        name + " " + request.version + " has no Python " + python->text() + " wheels: " + ctx.build->name()
            + " supports " + python->text() + " experimentally, and its companions were not built for it",
        torch->provenance.cite());
    report.suggest("use Python " + ctx.build->python.describe() + " with " + name + " " + request.version
        + (line ? ", or torch >= " + *line + " and its " + name + " with Python " + python->text() : ""));
}

// torchvision and torchaudio carry CUDA code of their own, built for one CUDA, and check it on
// import against torch's. torchvision compared major and minor ("Detected that PyTorch and
// torchvision were compiled with different CUDA versions") until 0.16 compared the major alone
// (vision#7726). torchaudio's check came with 0.13 (audio#2707) and compares major and minor in
// every release through 2.11, its last (audio#4226 relaxed it after). A CPU build has no CUDA
// kernels for its operators at all. Without a label pip takes the build of the index torch came
// from ("0.12.0+cu116" sorts above "0.12.0").
void check_companion_build(const FrameworkBuild& build, const FrameworkRequest& request, Report& report)
{
    if (request.local.empty() || request.local == build.variant)
        return;
    const bool vision = request.framework == Framework::torchvision;
    const std::string companion(to_string(request.framework));
    const std::string name = companion + " " + request.version + "+" + request.local;
    const std::string source = vision
        ? "https://github.com/pytorch/vision/blob/main/torchvision/extension.py | "
          "https://github.com/pytorch/vision/pull/7726"
        : "https://github.com/pytorch/audio/blob/15ea6216d7f28542df372453248fe1ddbe93a7a6/src/torchaudio/_extension/"
          "utils.py | https://github.com/pytorch/audio/pull/2707";
    auto cuda = matrix::variant_cuda(request.local);
    if (request.local == "cpu") {
        report.add(Verdict::warn, "companion-cpu-build",
            name + " is a CPU build beside " + build.name() + ": its operators have no CUDA kernels", source);
        report.suggest(
            "install the companion of the same build: " + companion + "==" + request.version + "+" + build.variant);
        return;
    }
    if (!cuda || *cuda == build.cuda)
        return;
    const std::string built_for
        = name + " is built for CUDA " + cuda->text() + " and " + build.name() + " for CUDA " + build.cuda.text();
    const auto version = Pep440Version::parse(request.version);
    const bool major = cuda->major() != build.cuda.major();
    const bool checks_minor = vision ? version < Pep440Version::parse("0.16") : true;
    if (!vision && version < Pep440Version::parse("0.13")) {
        report.add(Verdict::unknown, "companion-cuda-unchecked",
            built_for
                + ": torchaudio before 0.13 does not check torch's CUDA on import, and whether it runs beside "
                  "it is not on record",
            source);
    } else if (!major && !checks_minor) {
        report.add(Verdict::ok, "companion-cuda-minor",
            built_for + ": torchvision from 0.16 checks the CUDA major alone, and it loads", source);
        return;
    } else {
        report.add(Verdict::fail, "companion-cuda-mismatch",
            built_for + ": " + companion + " " + request.version
                + " refuses, on import, a torch compiled for another CUDA " + (major ? "major" : "minor"),
            source);
    }
    report.suggest(
        "install the companion of the same build: " + companion + "==" + request.version + "+" + build.variant);
}

// Whether an issue hits the build: the release it names, on a Python from its first one; a
// Python-bound issue says nothing where the query names no Python.
bool hits(const matrix::PipExtraIssue& issue, const FrameworkBuild& build, const std::optional<PythonVersion>& python)
{
    if (!issue.versions.empty()
        && (!build.version
            || std::find(issue.versions.begin(), issue.versions.end(), *build.version) == issue.versions.end()))
        return false; // a line names its newest release, which no version-bound issue hits
    if (!issue.extra.empty() && issue.extra != build.extra)
        return false;
    return !issue.python_from || (python && !(*python < *issue.python_from));
}

// What is known to go wrong with the pip extra a request names: TensorFlow's [and-cuda], one
// of a JAX build's. None where it names none.
const std::vector<matrix::PipExtraIssue>* pip_extra_issues(const FrameworkBuild& build, const FrameworkRequest& request)
{
    if (request.extra.empty() || request.framework != build.framework)
        return nullptr;
    if (build.tensorflow && build.extra == build.tensorflow->pip_extra)
        return &build.tensorflow->pip_extra_issues;
    if (build.jax_build && (build.extra == build.jax_build->extra || build.extra == build.jax_build->local_extra))
        return &build.jax_build->pip_extra_issues;
    return nullptr;
}

void check_pip_extra_issues(
    const Context& ctx, const FrameworkBuild& build, const std::vector<matrix::PipExtraIssue>& issues, Report& report)
{
    const std::string extra = std::string(to_string(build.framework)) + "[" + build.extra + "]";
    const std::string installed = extra + "==" + build.release();
    // TensorFlow's extra installs from PyPI; JAX's before 0.4.26 from JAX's own wheel page
    const std::string index = build.framework == Framework::tensorflow ? " from PyPI" : "";
    // a cuDNN of the build's major named beside it is one pinned below the major pip would take
    const bool cudnn_pinned = ctx.query.cudnn && build.cudnn && ctx.query.cudnn->major() == build.cudnn->major();
    for (const auto& issue : issues) {
        if (!hits(issue, build, ctx.query.python))
            continue;
        if (issue.kind == matrix::PipExtraIssue::Kind::library_too_new && cudnn_pinned)
            continue;
        const std::string use_fixed = issue.fixed_in ? "use " + extra + "==" + issue.fixed_in->public_str() : "";
        switch (issue.kind) {
        case matrix::PipExtraIssue::Kind::uninstallable:
            report.add(Verdict::fail, "pip-extra-uninstallable",
                installed + " cannot be installed" + index
                    + (issue.python_from ? " on Python " + issue.python_from->text() + " and newer" : "")
                    + ": its extra " + issue.detail,
                issue.provenance.cite());
            if (issue.fixed_in)
                report.suggest(use_fixed + ", which installs");
            break;
        case matrix::PipExtraIssue::Kind::libraries_not_found:
            report.add(Verdict::warn, "pip-extra-libraries-not-found",
                installed
                    + " does not find the NVIDIA libraries its extra installs: unless CUDA's libraries are "
                      "on the loader path (a system CUDA, LD_LIBRARY_PATH), the GPU goes unused; "
                    + issue.detail,
                issue.provenance.cite());
            report.suggest(issue.fixed_in
                    ? use_fixed + ", which finds them"
                    : "link the NVIDIA libraries into TensorFlow's package directory (ln -svf ../nvidia/*/lib/*.so* "
                      "there), as https://www.tensorflow.org/install/pip shows for Linux");
            break;
        case matrix::PipExtraIssue::Kind::library_too_new:
            report.add(Verdict::fail, "pip-extra-library-too-new",
                installed + " leaves the GPU unused: its extra " + issue.detail, issue.provenance.cite());
            if (issue.fixed_in)
                report.suggest("use " + build.package() + " " + issue.fixed_in->public_str()
                    + " or newer, whose extra bounds the pin");
            break;
        }
    }
}

// The build of `fixed_in` to move to from `build`: its own variant where that release has it,
// else the one of the nearest newer CUDA (1.13 kept no cu113); none where the matrix lacks both.
std::optional<std::string> fixing_build(
    const matrix::Matrix& matrix, const FrameworkBuild& build, const Pep440Version& fixed_in)
{
    for (const auto& release : matrix.torch_releases()) {
        if (std::find(release.versions.begin(), release.versions.end(), fixed_in) == release.versions.end())
            continue;
        const matrix::TorchVariant* nearest = nullptr;
        for (const auto& variant : release.variants) {
            if (variant.tag == build.variant)
                return fixed_in.public_str() + "+" + variant.tag;
            if (!(variant.cuda < build.torch_variant->cuda) && (!nearest || variant.cuda < nearest->cuda))
                nearest = &variant;
        }
        if (nearest)
            return fixed_in.public_str() + "+" + nearest->tag;
    }
    return std::nullopt;
}

// A bug the torch build's or the jax release's wheels are known to ship with: on every host, or
// on the GPUs named above the compute capability it hits, or in the native Windows wheels alone.
void check_known_issues(const Context& ctx, Report& report)
{
    const FrameworkBuild& build = *ctx.build;
    const auto* issues = build.torch_variant ? &build.torch_variant->known_issues
        : build.jax                          ? &build.jax->known_issues
                                             : nullptr;
    if (!build.version || !issues)
        return; // a line stands for its newest release, which no issue on record hits
    for (const auto& issue : *issues) {
        if (std::find(issue.versions.begin(), issue.versions.end(), *build.version) == issue.versions.end())
            continue;
        if (issue.windows_only && ctx.query.os != HostOs::windows_native)
            continue;
        auto add = [&](const std::string& where, const std::string& subject) {
            report.add(issue.fails ? Verdict::fail : Verdict::warn, "framework-known-issue",
                build.name() + (issue.windows_only ? "'s Windows wheel" : "") + where + " ships with a known bug: "
                    + issue.detail + (issue.fixed_in ? " (fixed in " + issue.fixed_in->public_str() + ")" : ""),
                issue.provenance.cite(), subject);
            if (!issue.fixed_in)
                return;
            if (auto fixed = build.torch ? fixing_build(ctx.matrix, build, *issue.fixed_in) : std::nullopt)
                report.suggest("use torch==" + *fixed + ", which fixes it");
            else
                report.suggest("use " + std::string(to_string(build.framework)) + " " + issue.fixed_in->public_str()
                    + " or newer, which fixes it");
        };
        if (!issue.above_capability) {
            add("", "");
            continue;
        }
        for (const auto& gpu : ctx.gpus)
            if (*issue.above_capability < gpu.compute_capability)
                add(" on " + gpu.with_sm(), gpu.label);
    }
}

} // namespace

bool on_torchaudio_stable_abi(const matrix::Matrix& matrix, const Pep440Version& torchaudio)
{
    const auto& stable = matrix.torchaudio_stable_abi();
    return stable && !(torchaudio < stable->from);
}

void check_framework(const Context& ctx, Report& report)
{
    check_python(ctx, report);
    if (ctx.build)
        check_known_issues(ctx, report);
    for (const auto& request : ctx.query.frameworks) {
        if (const auto* issues = ctx.build ? pip_extra_issues(*ctx.build, request) : nullptr)
            check_pip_extra_issues(ctx, *ctx.build, *issues, report);
        if (is_companion(request.framework)) {
            if (ctx.build && ctx.build->torch) {
                check_companion(ctx, request, report);
                check_companion_python(ctx, request, report);
                check_companion_build(*ctx.build, request, report);
            }
        } else {
            check_extension_toolkit(ctx, request, report);
            if (ctx.build && ctx.build->extra_alias && request.framework == ctx.build->framework)
                check_jax_extra_alias(ctx, request, report);
            if (ctx.query.cuda && ctx.build && ctx.build->jax_build)
                check_jax_host_cuda(ctx, request, report);
            if (ctx.build && ctx.build->tensorflow)
                check_tensorflow_package(request, report);
        }
    }
}

} // namespace dlenv::resolve
