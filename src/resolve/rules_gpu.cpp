#include "resolve/rules.h"

#include "core/closest.h"

#include <algorithm>

namespace dlenv::resolve {
namespace {

using Ptx = std::optional<std::vector<ComputeCapability>>;

bool has_ptx(const Ptx& ptx, const ComputeCapability& cc)
{
    return ptx && std::find(ptx->begin(), ptx->end(), cc) != ptx->end();
}

// PTX of an older architecture is what would let the driver compile code for the device.
bool has_older_arch(const std::vector<ComputeCapability>& archs, const ComputeCapability& device)
{
    return std::any_of(archs.begin(), archs.end(), [&](const ComputeCapability& cc) { return cc < device; });
}

std::string arch_list_text(const std::vector<ComputeCapability>& archs, const Ptx& ptx)
{
    std::string out;
    for (const auto& cc : archs)
        out += (out.empty() ? "" : ";") + cc.text() + (has_ptx(ptx, cc) ? "+PTX" : "");
    return out + (!ptx ? " (PTX not on record)" : ptx->empty() ? " (no PTX)" : "");
}

// How a build's GPU code reaches a device: its own cubin, a compatible cubin of the same
// major with a lower minor, or PTX compiled by the driver at load time.
struct CodePath {
    std::optional<ComputeCapability> exact;
    std::optional<ComputeCapability> cubin; // same major, lower minor
    std::optional<ComputeCapability> ptx; // any arch <= the device
};

CodePath code_path(const std::vector<ComputeCapability>& archs, const Ptx& ptx, const ComputeCapability& device)
{
    CodePath path;
    for (const auto& cc : archs) {
        if (cc == device)
            path.exact = cc;
        else if (cc.major() == device.major() && cc.minor() < device.minor() && (!path.cubin || *path.cubin < cc))
            path.cubin = cc;
    }
    for (const auto& cc : ptx.value_or(std::vector<ComputeCapability> {}))
        if (cc <= device && (!path.ptx || *path.ptx < cc))
            path.ptx = cc;
    return path;
}

bool has_kernels(const CodePath& path)
{
    return path.exact || path.cubin;
}

// The oldest torch build with kernels for `device` (PTX alone does not count: 1.4's compute_37
// reaches every newer GPU by JIT, but later lines dropped it), or the newest one for a device
// older than every architecture of the build it fails on (a K80 on torch 2.4): the suggestion
// is "that build or newer", or "that build or older".
std::optional<std::string> torch_build_for(const matrix::Matrix& matrix, const ComputeCapability& device, bool newest)
{
    std::optional<std::string> best;
    std::optional<Pep440Version> best_line;
    for (const auto& release : matrix.torch_releases())
        for (const auto& variant : release.variants) {
            if (!variant.arch_list || !has_kernels(code_path(*variant.arch_list, variant.ptx, device)))
                continue;
            auto line = Pep440Version::parse(release.line);
            if (!best_line || (newest ? *best_line < line : line < *best_line)) {
                best_line = line;
                best = "torch " + release.line + " " + variant.tag;
            }
        }
    return best;
}

// Judges the build's GPU code for `gpu`; false where it cannot run there.
bool check_build_code(const Context& ctx, const GpuTarget& gpu, const matrix::Architecture* arch, Report& report)
{
    const FrameworkBuild& build = *ctx.build;
    const std::string sm = gpu.compute_capability.sm_name();
    const std::string source = build.code_provenance.value_or(build.provenance).cite();
    if (!build.arch_list) {
        report.add(Verdict::warn, "gpu-arch-list-unknown",
            "the GPU code " + build.name()
                + " carries is not on record (unconfirmed): cannot tell whether it has "
                  "kernels for "
                + sm,
            source, gpu.label);
        return true;
    }
    CodePath path = code_path(*build.arch_list, build.ptx, gpu.compute_capability);
    bool may_run = true;
    std::string archs = arch_list_text(*build.arch_list, build.ptx);
    if (path.exact) {
        report.add(
            Verdict::ok, "gpu-cubin", build.name() + " carries " + sm + " kernels for " + gpu.label, source, gpu.label);
    } else if (path.cubin) {
        // NVIDIA's binary compatibility, and the way PyTorch serves 8.9 (no wheel carries sm_89):
        // it runs, as TensorFlow's same-major cubins do
        const std::string runs = build.name() + " has no " + sm + " kernels (" + archs + "); its "
            + path.cubin->sm_name() + " cubins run on " + gpu.compute_capability.text() + " (same major, higher minor)";
        const auto* range_warning = torch_capability_range_warning(ctx.matrix, build);
        const bool above_range = range_warning
            && *std::max_element(build.arch_list->begin(), build.arch_list->end()) < gpu.compute_capability;
        if (above_range)
            report.add(Verdict::warn, "gpu-capability-range-warning",
                runs + ", and torch " + build.line + " warns at start-up that " + gpu.compute_capability.text()
                    + " is above the capabilities it supports",
                range_warning->provenance.cite(), gpu.label);
        else
            report.add(Verdict::ok, "gpu-cubin-compatible",
                runs + ", without kernels specific to " + (arch ? arch->name : gpu.compute_capability.text()), source,
                gpu.label);
    } else if (path.ptx) {
        const auto* toolkit = ctx.cuda ? ctx.matrix.first_toolkit(*ctx.cuda) : nullptr;
        const auto toolkit_floor = toolkit ? toolkit_driver(*toolkit, ctx.query.os) : std::nullopt;
        const auto driver = ctx.desktop_driver();
        bool minor_version_mode = driver && toolkit_floor && *driver < *toolkit_floor;
        may_run = !minor_version_mode;
        if (minor_version_mode)
            report.add(Verdict::fail, "gpu-ptx-jit-driver-too-old",
                gpu.label + " needs the driver to JIT-compile " + build.name() + "'s compute_"
                    + std::to_string(path.ptx->major()) + std::to_string(path.ptx->minor()) + " PTX, but driver "
                    + driver->text() + " is older than the CUDA " + ctx.cuda->text() + " toolkit driver "
                    + toolkit_floor->text() + ": cudaErrorUnsupportedPtxVersion (222)",
                source, gpu.label);
        else
            report.add(Verdict::warn, "gpu-ptx-jit",
                build.name() + " has no cubin for " + sm + " (" + archs + "); the driver JIT-compiles its "
                    + path.ptx->text() + " PTX on first launch (slow start, no architecture-specific kernels)",
                source, gpu.label);
    } else if (!build.ptx && has_older_arch(*build.arch_list, gpu.compute_capability)) {
        report.add(Verdict::warn, "gpu-ptx-unknown",
            build.name() + " has no cubin for " + sm + " (" + archs
                + "), and which architectures it carries PTX for is not on record: whether it runs on " + gpu.label
                + " is not known",
            source, gpu.label);
    } else if (build.host_code_unknown) {
        report.add(Verdict::warn, "gpu-host-code-unknown",
            build.name() + "'s Linux x86_64 wheels carry no code for " + gpu.with_sm() + " (" + archs
                + "), and which architectures its Linux aarch64 wheels, those of " + gpu.label
                + "'s host, carry is not on record: whether it runs there is not known",
            source, gpu.label);
    } else {
        may_run = false;
        report.add(Verdict::fail, "gpu-no-kernel",
            build.name() + " carries no code for " + gpu.with_sm() + ": its GPU code is " + archs
                + ", and a cubin runs only on the same major with an equal or higher minor "
                  "(\"no kernel image is available for execution on the device\")",
            source, gpu.label);
        bool older_device = !has_older_arch(*build.arch_list, gpu.compute_capability);
        if (auto other = torch_build_for(ctx.matrix, gpu.compute_capability, older_device))
            report.suggest("for " + gpu.label + " use " + *other
                + (older_device ? " or older: the last" : " or newer: the first") + " torch build with kernels for "
                + sm);
    }
    if (arch && ctx.cuda && *ctx.cuda < arch->min_cuda)
        report.add(Verdict::warn, "gpu-extension-target",
            "CUDA " + ctx.cuda->text() + " cannot target " + sm + " (needs CUDA >= " + arch->min_cuda.text()
                + "): extensions built against " + build.name() + " cannot carry " + sm + " code",
            arch->provenance.cite(), gpu.label);
    return may_run;
}

// torch.compile's default backend, Inductor, generates Triton kernels, and Triton needs compute
// capability 7.0: below it eager mode runs and torch.compile raises. torch's wheels bring Triton
// on Linux alone; on native Windows torch.compile has none whatever the GPU, so the GPU's
// capability says nothing there.
void check_compile_gpu(const Context& ctx, const GpuTarget& gpu, Report& report)
{
    const FrameworkBuild& build = *ctx.build;
    const auto* minimum = torch_compile_gpu_minimum(ctx.matrix, build);
    if (!minimum || !(gpu.compute_capability < minimum->min) || !brings_triton(ctx.query.os))
        return;
    // torch's words name the device, which a bare compute capability does not
    const std::string quote
        = gpu.model ? " (\"Found " + gpu.label + " which is too old to be supported by the triton GPU compiler\")" : "";
    report.add(Verdict::warn, "torch-compile-unsupported-gpu",
        build.name() + " runs on " + gpu.with_sm() + " in eager mode, but torch.compile refuses it: its default "
            + "backend generates Triton kernels, which need compute capability " + minimum->min.text() + quote,
        minimum->provenance.cite(), gpu.label);
}

// TensorFlow's wheels carry cubins for some architectures and PTX for the newest; XLA
// compiles the rest with the CUDA the release was built with, whose window
// check_toolkit_window judges first. Within it, a GPU no cubin of its major serves runs on the
// driver's JIT of that PTX (minutes at start-up), and one older than every architecture the
// wheels carry has no code at all.
void check_tensorflow_code(const FrameworkBuild& build, const GpuTarget& gpu, Report& report)
{
    const auto& code = *build.tensorflow->gpu_code;
    CodePath path = code_path(code.cubins, code.ptx, gpu.compute_capability);
    if (has_kernels(path))
        return;
    const std::string sm = gpu.compute_capability.sm_name();
    const std::string archs = arch_list_text(code.cubins, code.ptx);
    if (path.ptx)
        report.add(Verdict::warn, "gpu-ptx-jit",
            build.name() + " has no cubin for " + sm + " (" + archs + "); the driver JIT-compiles its "
                + path.ptx->text() + " PTX when " + gpu.label + " first runs it (a start-up of minutes)",
            code.provenance.cite(), gpu.label);
    else
        report.add(Verdict::fail, "gpu-no-kernel",
            build.name() + " carries no code for " + gpu.with_sm() + ": its GPU code is " + archs
                + ", and a cubin runs only on the same major with an equal or higher minor",
            code.provenance.cite(), gpu.label);
}

// The oldest TensorFlow line built with `min_cuda` or newer.
std::optional<std::string> first_tensorflow_for(const matrix::Matrix& matrix, const CudaVersion& min_cuda)
{
    const matrix::TensorflowRelease* first = nullptr;
    for (const auto& release : matrix.tensorflow_releases())
        if (!(release.cuda < min_cuda)
            && (!first || Pep440Version::parse(release.line) < Pep440Version::parse(first->line)))
            first = &release;
    return first ? std::optional(first->line) : std::nullopt;
}

// TensorFlow's kernels are compiled with its line's CUDA, so a GPU that CUDA cannot target
// needs another line, not another toolkit on the host: name the first line built with one that
// can, or, where `none_is_news`, say that none is.
void suggest_tensorflow_for_gpu(
    const Context& ctx, const GpuTarget& gpu, const matrix::Architecture& arch, bool none_is_news, Report& report)
{
    const std::string sm = gpu.compute_capability.sm_name();
    if (auto line = first_tensorflow_for(ctx.matrix, arch.min_cuda))
        report.suggest("for " + gpu.label + " use tensorflow >= " + *line + ", the first line built with a CUDA that "
            + "targets " + sm);
    else if (none_is_news)
        report.suggest("no tensorflow line on record is built with a CUDA that targets " + sm
            + " (CUDA >= " + arch.min_cuda.text() + "): a newer CUDA on the host does not change the CUDA "
            + ctx.build->cuda.text() + " that " + ctx.build->name() + "'s kernels were built with");
}

// A TensorFlow whose CUDA cannot target the GPU still runs on it where that is on record:
// its wheels carry a cubin of the GPU's major and XLA hands what that CUDA's ptxas cannot
// compile to the driver (TensorFlow 2.4, CUDA 11.0, on an RTX 3090), or they carry PTX the
// driver JIT-compiles (TensorFlow 2.3, CUDA 10.1, on an RTX 3080). True when that is the case.
bool check_tensorflow_beyond_toolkit(
    const Context& ctx, const GpuTarget& gpu, const matrix::Architecture& arch, Report& report)
{
    const FrameworkBuild& build = *ctx.build;
    const auto& code = *build.tensorflow->gpu_code;
    if (!(*ctx.cuda < arch.min_cuda))
        return false;
    CodePath path = code_path(code.cubins, code.ptx, gpu.compute_capability);
    const std::string sm = gpu.compute_capability.sm_name();
    if (path.cubin && code.driver_fallback)
        report.add(Verdict::warn, "tensorflow-ptxas-fallback",
            build.name() + "'s " + path.cubin->sm_name() + " cubins run on " + gpu.with_sm() + ", but its CUDA "
                + ctx.cuda->text() + " cannot target " + sm
                + ": XLA hands the kernels ptxas cannot compile to the driver (\"Your CUDA software stack is old. We "
                  "fallback to the NVIDIA driver for some compilation\"), which is slower",
            code.driver_fallback->cite() + " | " + arch.provenance.cite(), gpu.label);
    else if (!path.cubin && path.ptx && code.driver_jit)
        report.add(Verdict::warn, "gpu-ptx-jit",
            build.name() + " has no cubin for " + sm + " (" + arch_list_text(code.cubins, code.ptx)
                + "), which its CUDA " + ctx.cuda->text() + " cannot target: the driver JIT-compiles its "
                + path.ptx->text() + " PTX when " + gpu.label
                + " first runs it (a start-up TensorFlow puts at up to 30 minutes)",
            code.driver_jit->cite() + " | " + arch.provenance.cite(), gpu.label);
    else
        return false;
    suggest_tensorflow_for_gpu(ctx, gpu, arch, false, report); // it runs: a newer line is only an option
    return true;
}

// TensorFlow's Linux wheels of the lines whose GPU code is not on record carry none below a
// minimum, and TensorFlow ignores such a GPU at start-up.
void check_tensorflow_gpu_minimum(const Context& ctx, const GpuTarget& gpu, Report& report)
{
    const FrameworkBuild& build = *ctx.build;
    const auto* minimum = tensorflow_gpu_minimum(ctx.matrix, build, ctx.query.os);
    if (!minimum || !(gpu.compute_capability < minimum->min))
        return;
    report.add(Verdict::fail, "gpu-below-framework-minimum",
        build.name() + "'s Linux wheels support compute capability " + minimum->min.text() + " and newer; " + gpu.label
            + " is " + gpu.compute_capability.text()
            + ", so TensorFlow ignores it (\"The minimum required Cuda capability is " + minimum->min.text() + "\")",
        minimum->provenance.cite(), gpu.label);
    report.suggest("use a GPU of compute capability " + minimum->min.text()
        + " or newer, or build TensorFlow from source for " + gpu.compute_capability.sm_name());
}

// JAX publishes no arch list, only the oldest compute capability each build supports: below
// it is a failure, at or above it is what JAX's own documentation promises.
void check_framework_minimum(const FrameworkBuild& build, const GpuTarget& gpu, Report& report)
{
    const auto& min = build.jax_build->min_compute_capability;
    const std::string source = build.provenance.cite();
    const std::string what = "JAX's " + build.jax_build->extra + " build";
    if (!min) {
        report.add(Verdict::warn, "gpu-arch-list-unknown",
            "the GPU code " + what + " carries is not on record (unconfirmed): cannot tell whether it has kernels for "
                + gpu.compute_capability.sm_name(),
            source, gpu.label);
        return;
    }
    const std::string against = what + " supports compute capability " + min->text() + " and newer; " + gpu.label
        + " is " + gpu.compute_capability.text();
    if (gpu.compute_capability < *min)
        report.add(Verdict::fail, "gpu-below-framework-minimum", against, source, gpu.label);
    else
        report.add(Verdict::ok, "gpu-framework-minimum",
            against + " (which architectures it carries code for is not on record)", source, gpu.label);
}

bool listed(const std::vector<ComputeCapability>& list, const ComputeCapability& cc)
{
    return std::find(list.begin(), list.end(), cc) != list.end();
}

bool known_to_run(const matrix::JaxRelease& release, const ComputeCapability& cc)
{
    return release.blackwell && listed(release.blackwell->runs_on, cc);
}

bool known_to_fail(const matrix::JaxRelease& release, const ComputeCapability& cc)
{
    const auto& blackwell = release.blackwell;
    return blackwell && (blackwell->others_fail || listed(blackwell->fails_on, cc)) && !listed(blackwell->runs_on, cc);
}

// A jaxlib older than the release that brought native code for the GPU's architecture runs on
// PTX the driver compiles the first time each operation runs (jaxlib 0.4.12's CHANGELOG: Hopper).
// A driver below the build's own floor is the driver rules' to judge: they fail the JIT it refuses.
void check_jax_native_code(const Context& ctx, const FrameworkBuild& build, const GpuTarget& gpu, Report& report)
{
    if (!build.version)
        return; // a line stands for its newest release
    const auto driver = ctx.linux_driver();
    const auto& floor = build.jax_build->driver_linux;
    if (floor && driver && *driver < *floor)
        return;
    const ComputeCapability& cc = gpu.compute_capability;
    for (const auto& native : ctx.matrix.jax_native_code()) {
        if (cc.major() != native.capability.major() || cc < native.capability || !(*build.version < native.from))
            continue;
        report.add(Verdict::warn, "gpu-ptx-jit",
            "jaxlib " + build.version->public_str() + " carries no " + native.capability.sm_name() + " code: on "
                + gpu.with_sm() + " it runs on PTX the driver compiles, with a long delay the first time each "
                + "operation runs (jaxlib " + native.from.public_str() + " on carries it)",
            native.provenance.cite(), gpu.label);
        report.suggest("for " + gpu.label + " use jax >= " + native.from.public_str() + ", whose jaxlib carries "
            + native.capability.sm_name() + " code");
    }
}

// The oldest JAX release known to run on `cc`.
std::optional<Pep440Version> first_jax_for(const matrix::Matrix& matrix, const ComputeCapability& cc)
{
    std::optional<Pep440Version> first;
    for (const auto& release : matrix.jax_releases())
        if (known_to_run(release, cc) && (!first || release.versions.front() < *first))
            first = release.versions.front();
    return first;
}

// On a Blackwell GPU the release's XLA decides: one that knows the architecture compiles
// for it, one that does not compiles arch-conditional PTX for an older one, which ptxas
// refuses for a newer GPU. Below Blackwell, check_framework_minimum has said all there is.
void check_jax_blackwell(
    const matrix::Matrix& matrix, const FrameworkBuild& build, const GpuTarget& gpu, Report& report)
{
    const ComputeCapability& cc = gpu.compute_capability;
    const auto& blackwell = build.jax->blackwell;
    const std::string release = "jax " + build.release();
    if (known_to_run(*build.jax, cc)) {
        report.add(Verdict::ok, "jax-runs-on-gpu",
            release + " runs on " + gpu.with_sm() + ": its XLA compiles for compute capability " + cc.text(),
            blackwell->provenance.cite(), gpu.label);
        return;
    }
    if (known_to_fail(*build.jax, cc))
        report.add(Verdict::fail, "jax-xla-unknown-gpu",
            release + " cannot run on " + gpu.with_sm() + ": its XLA does not know compute capability " + cc.text()
                + ", and the kernels it compiles for it fail at ptxas",
            blackwell->provenance.cite(), gpu.label);
    else
        report.add(Verdict::unknown, "jax-gpu-unconfirmed",
            "whether " + release + "'s XLA compiles for " + gpu.with_sm() + " is not on record",
            blackwell ? blackwell->provenance.cite() : build.provenance.cite(), gpu.label);
    if (auto first = first_jax_for(matrix, cc))
        report.suggest("for " + gpu.label + " use jax >= " + first->public_str()
            + ", the first release known to run on " + cc.sm_name());
}

// The newest architecture of the same major, below `device`, that `cuda` can target and
// that discrete GPUs use (a Jetson-only architecture such as 8.7 is no fallback for a 4090).
std::optional<ComputeCapability> fallback_target(
    const matrix::Matrix& matrix, const ComputeCapability& device, const CudaVersion& cuda)
{
    std::optional<ComputeCapability> best;
    for (const auto& arch : matrix.architectures()) {
        const auto& cc = arch.compute_capability;
        if (cc.major() != device.major() || !(cc < device) || cuda < arch.min_cuda || (best && cc < *best))
            continue;
        bool discrete = std::any_of(matrix.gpus().begin(), matrix.gpus().end(), [&](const matrix::Gpu& gpu) {
            return gpu.compute_capability == cc && gpu.segment != matrix::GpuSegment::jetson;
        });
        if (discrete)
            best = cc;
    }
    return best;
}

// True when the CUDA can target the GPU.
bool check_toolkit_window(const Context& ctx, const GpuTarget& gpu, const matrix::Architecture& arch, Report& report)
{
    const CudaVersion& cuda = *ctx.cuda;
    const std::string sm = gpu.compute_capability.sm_name();
    if (cuda < arch.min_cuda) {
        report.add(Verdict::fail, "cuda-cannot-target-gpu",
            "CUDA " + cuda.text() + " cannot target " + sm + " (" + gpu.label + ", " + arch.name
                + "): compute capability " + gpu.compute_capability.text() + " needs CUDA >= " + arch.min_cuda.text(),
            arch.provenance.cite(), gpu.label);
        if (ctx.build && ctx.build->tensorflow) {
            suggest_tensorflow_for_gpu(ctx, gpu, arch, true, report);
            return false;
        }
        std::string fix = "use CUDA >= " + arch.min_cuda.text();
        if (auto fallback = fallback_target(ctx.matrix, gpu.compute_capability, cuda))
            fix += ", or compile for " + fallback->sm_name() + " (its cubin runs on " + gpu.compute_capability.text()
                + ")";
        report.suggest(fix);
        return false;
    }
    if (arch.max_cuda && cuda.compare_truncated(*arch.max_cuda) > 0) {
        report.add(Verdict::fail, "cuda-dropped-gpu",
            "CUDA " + cuda.text() + " no longer targets " + sm + " (" + gpu.label + ", " + arch.name
                + "): the last toolkit that does is " + arch.max_cuda->text(),
            arch.provenance.cite(), gpu.label);
        report.suggest("use CUDA <= " + arch.max_cuda->text() + " for " + gpu.label);
        return false;
    }
    // A toolkit that deprecates the architecture still builds for it, for the last time in
    // its major; a framework's wheels already carry their code, so only the toolkit's own
    // question hears of it.
    if (!ctx.build && arch.deprecated_from && !(cuda < *arch.deprecated_from)) {
        report.add(Verdict::warn, "cuda-gpu-deprecated",
            "CUDA " + cuda.text() + " can target " + sm + " (" + gpu.label + "), but deprecates " + arch.name
                + " since CUDA " + arch.deprecated_from->text()
                + (arch.max_cuda ? ": CUDA " + arch.max_cuda->text() + " is the last toolkit that targets it" : ""),
            arch.provenance.cite(), gpu.label);
        return true;
    }
    report.add(Verdict::ok, "cuda-targets-gpu", "CUDA " + cuda.text() + " can target " + sm + " (" + gpu.label + ")",
        arch.provenance.cite(), gpu.label);
    return true;
}

// The driver series after an architecture's last one do not drive it, so a CUDA line whose
// lowest driver is newer than that series runs on no driver at all.
void check_driver_series(const Context& ctx, const GpuTarget& gpu, const matrix::Architecture& arch, Report& report)
{
    const std::uint32_t last = *arch.max_driver_branch;
    const std::string series = "the " + std::to_string(last) + " series is the last that supports " + arch.name
        + " (compute capability " + gpu.compute_capability.text() + ")";
    if (const auto driver_series = ctx.driver_series(); driver_series && *driver_series > last) {
        const bool windows = runs_windows_driver(ctx.query.os);
        // a Windows number at or past the newest branch on record may be of a later one
        const auto span = ctx.matrix.driver_release_span();
        const bool newest = !span || *driver_series >= span->newest;
        report.add(Verdict::fail, "driver-dropped-gpu",
            "driver " + ctx.query.driver->text()
                + (windows ? " (a Windows driver of the " + std::to_string(*driver_series) + " series"
                            + (newest ? " or a later one)" : ")")
                           : "")
                + " does not support " + gpu.label + ": " + series,
            windows ? arch.provenance.cite_with(ctx.matrix.windows_driver_numbering()->provenance)
                    : arch.provenance.cite(),
            gpu.label);
        report.suggest("use a " + std::to_string(last) + "-series (or older) driver for " + gpu.label);
    }
    const auto* toolkit = ctx.cuda ? ctx.matrix.first_toolkit(*ctx.cuda) : nullptr;
    if (!toolkit || ctx.query.forward_compat)
        return;
    const auto* floor = ctx.matrix.minor_version_floor(ctx.cuda->major());
    const DriverVersion& lowest
        = floor && floor->driver_linux < *toolkit->driver_linux ? floor->driver_linux : *toolkit->driver_linux;
    if (lowest.major() > last)
        report.add(Verdict::fail, "no-driver-for-gpu",
            "no driver runs CUDA " + ctx.cuda->truncated(2).text() + " on " + gpu.label + ": CUDA "
                + ctx.cuda->truncated(2).text() + " needs driver >= " + lowest.text() + ", and " + series,
            arch.provenance.cite(), gpu.label);
}

// The stack as `gpu`'s host runs it: a GPU sold only beside an Arm CPU (a Grace part, a Jetson
// module) runs torch's Linux aarch64 wheels, built with GPU code of their own.
Context on_host_of(const Context& ctx, const GpuTarget& gpu, const matrix::Architecture* arch)
{
    Context host = ctx;
    const bool arm_only = (arch && arch->jetson) || sold_with_grace(gpu);
    if (!arm_only || ctx.query.os != HostOs::linux_host || !host.build || !host.build->torch_variant)
        return host;
    if (const auto& code = host.build->torch_variant->linux_aarch64)
        use_platform_wheel_code(*host.build, code);
    else
        host.build->host_code_unknown = true;
    return host;
}

} // namespace

void check_gpus(const Context& all, Report& report)
{
    for (const auto& gpu : all.gpus) {
        const auto* arch = all.matrix.architecture(gpu.compute_capability);
        const Context ctx = on_host_of(all, gpu, arch);

        if (arch && arch->max_driver_branch)
            check_driver_series(ctx, gpu, *arch, report);
        const auto driver = ctx.linux_driver();
        if (arch && arch->min_driver_linux && driver && *driver < *arch->min_driver_linux)
            report.add(Verdict::fail, "driver-too-old-for-gpu",
                "driver " + driver->text() + " does not support " + gpu.label + " (" + arch->name
                    + ", compute capability " + gpu.compute_capability.text() + "): it needs >= "
                    + arch->min_driver_linux->text() + (arch->provenance.unconfirmed() ? " (unconfirmed)" : ""),
                arch->provenance.cite(), gpu.label);
        if (arch && arch->jetson && !check_jetson(ctx, gpu, *arch->jetson, report))
            continue;
        check_aarch64_host(ctx, gpu, report);
        if (ctx.build && ctx.build->framework == Framework::jax) {
            // XLA compiles for the GPU at run time with the CUDA's ptxas, so its window holds too
            if (ctx.cuda && arch)
                check_toolkit_window(ctx, gpu, *arch, report);
            check_framework_minimum(*ctx.build, gpu, report);
            check_jax_native_code(ctx, *ctx.build, gpu, report);
            if (gpu.compute_capability.major() >= 10)
                check_jax_blackwell(ctx.matrix, *ctx.build, gpu, report);
        } else if (ctx.build && ctx.build->framework == Framework::torch) {
            if (check_build_code(ctx, gpu, arch, report))
                check_compile_gpu(ctx, gpu, report);
        } else if (ctx.cuda && arch) {
            bool code_on_record = ctx.build && ctx.build->tensorflow && ctx.build->tensorflow->gpu_code;
            if (code_on_record && check_tensorflow_beyond_toolkit(ctx, gpu, *arch, report))
                continue;
            bool targets = check_toolkit_window(ctx, gpu, *arch, report);
            if (targets && code_on_record)
                check_tensorflow_code(*ctx.build, gpu, report);
            else if (targets && ctx.build)
                check_tensorflow_gpu_minimum(ctx, gpu, report);
        }
    }
}

bool brings_triton(HostOs os)
{
    return os != HostOs::windows_native;
}

const matrix::TorchCompileGpuMinimum* torch_compile_gpu_minimum(
    const matrix::Matrix& matrix, const FrameworkBuild& build)
{
    const auto& minimum = matrix.torch_compile_gpu_minimum();
    if (!minimum || build.framework != Framework::torch)
        return nullptr;
    return Pep440Version::parse(build.line) < minimum->from ? nullptr : &*minimum;
}

const matrix::TensorflowGpuMinimum* tensorflow_gpu_minimum(
    const matrix::Matrix& matrix, const FrameworkBuild& build, HostOs os)
{
    const auto& minimum = matrix.tensorflow_linux_gpu_minimum();
    const bool linux_wheels = os == HostOs::linux_host || os == HostOs::windows_wsl2;
    if (!minimum || build.framework != Framework::tensorflow || !linux_wheels)
        return nullptr;
    return minimum->through < Pep440Version::parse(build.line) ? nullptr : &*minimum;
}

const matrix::TorchCapabilityRangeWarning* torch_capability_range_warning(
    const matrix::Matrix& matrix, const FrameworkBuild& build)
{
    const auto& warning = matrix.torch_capability_range_warning();
    if (!warning || build.framework != Framework::torch || build.from_source)
        return nullptr;
    const auto line = Pep440Version::parse(build.line);
    return line < warning->from || !(line < warning->until) ? nullptr : &*warning;
}

} // namespace dlenv::resolve
