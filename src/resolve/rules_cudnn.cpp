#include "resolve/rules.h"

#include "core/closest.h"

#include <algorithm>

namespace dlenv::resolve {
namespace {

// Whether a support-matrix row holds the query's driver and every target GPU; a row whose GPUs
// are not on record holds none of them as supported or not, so it admits them.
bool admits(const matrix::CudnnBuild& build, const Context& ctx)
{
    if (const auto driver = ctx.linux_driver(); driver && build.driver_linux && *driver < *build.driver_linux)
        return false;
    return build.compute_capabilities.empty()
        || std::all_of(ctx.gpus.begin(), ctx.gpus.end(),
            [&](const GpuTarget& gpu) { return cubin_runs_on(build.compute_capabilities, gpu.compute_capability); });
}

std::string cc_list(const std::vector<ComputeCapability>& listed)
{
    std::string out;
    for (const auto& cc : listed)
        out += (out.empty() ? "" : ", ") + cc.text();
    return out;
}

// Whether `release` supports `cc` with CUDA `cuda`, by its builds for that CUDA that list their
// compute capabilities; nullopt where none does.
std::optional<bool> supports(const matrix::CudnnRelease& release, const CudaVersion& cuda, const ComputeCapability& cc)
{
    std::optional<bool> out;
    for (const auto& build : release.builds)
        if (!build.compute_capabilities.empty() && build.cuda.contains(cuda))
            out = out.value_or(false) || cubin_runs_on(build.compute_capabilities, cc);
    return out;
}

// The releases nearest `version`, one older and one newer, whose support of `cc` with `cuda`
// is on record; either may be missing.
struct ListedNeighbours {
    const matrix::CudnnRelease* older = nullptr;
    const matrix::CudnnRelease* newer = nullptr;
};

ListedNeighbours listed_neighbours(
    const matrix::Matrix& matrix, const CudnnVersion& version, const CudaVersion& cuda, const ComputeCapability& cc)
{
    ListedNeighbours out;
    for (const auto& release : matrix.cudnn_releases()) {
        if (!supports(release, cuda, cc).has_value())
            continue;
        if (release.version < version && (!out.older || out.older->version < release.version))
            out.older = &release;
        if (version < release.version && (!out.newer || release.version < out.newer->version))
            out.newer = &release;
    }
    return out;
}

// A release whose GPUs are not on record, judged by its neighbours: cuDNN drops an
// architecture in one release and adds one in another, so a release between two that agree
// on a GPU agrees with them. Where they disagree, or one is missing, it stays unknown.
void judge_by_neighbours(const Context& ctx, const matrix::CudnnRelease& release, const std::string& label,
    const GpuTarget& gpu, Report& report)
{
    ListedNeighbours around = listed_neighbours(ctx.matrix, release.version, *ctx.cuda, gpu.compute_capability);
    std::optional<bool> older
        = around.older ? supports(*around.older, *ctx.cuda, gpu.compute_capability) : std::nullopt;
    std::optional<bool> newer
        = around.newer ? supports(*around.newer, *ctx.cuda, gpu.compute_capability) : std::nullopt;
    if (!older || older != newer) {
        report.add(Verdict::unknown, "cudnn-gpu-support-unknown",
            "the compute capabilities " + label + " supports are not on record: whether it supports " + gpu.label
                + " is not known",
            release.provenance.cite(), gpu.label);
        return;
    }
    std::string older_name = "cuDNN " + around.older->version.text() + " before it";
    std::string newer_name = "cuDNN " + around.newer->version.text() + " after it";
    std::string source = around.older->provenance.cite() + " | " + around.newer->provenance.cite();
    if (*older)
        report.add(Verdict::ok, "cudnn-gpu-support-inferred",
            "the compute capabilities " + label + " supports are not on record; " + older_name + " and " + newer_name
                + " both support " + gpu.with_sm() + " with CUDA " + ctx.cuda->text() + ", so it is taken to as well",
            source, gpu.label);
    else
        report.add(Verdict::fail, "cudnn-gpu-unsupported",
            "the compute capabilities " + label + " supports are not on record, but neither " + older_name + " nor "
                + newer_name + " supports " + gpu.with_sm() + " with CUDA " + ctx.cuda->text()
                + ", so it is taken not to either",
            source, gpu.label);
}

// torch's import-time check: the cuDNN loaded must have the major it was compiled with and an
// equal or higher minor.
const std::string k_torch_cudnn_check = "https://github.com/pytorch/pytorch/blob/"
                                        "017943b70f6920c395e3b6dac100e2cd7ecfa92a/torch/backends/cudnn/__init__.py";

// "cuDNN 8.7.0.84 or a later 8.x": what a build of `ships` accepts at run time.
std::string same_or_later(const CudnnVersion& ships)
{
    return "cuDNN " + ships.text() + " or a later " + std::to_string(ships.major()) + ".x";
}

// A framework's own cuDNN against the one the user named.
void check_against_build(const Context& ctx, const CudnnVersion& wanted, Report& report)
{
    const FrameworkBuild& build = *ctx.build;
    const CudnnVersion& ships = *build.cudnn;
    if (wanted.is_prefix_of(ships) || ships.is_prefix_of(wanted))
        return;
    if (build.cudnn_bundled) {
        std::string message = build.name() + " bundles cuDNN " + ships.text() + " and loads it, not the cuDNN "
            + wanted.text() + " of the system";
        std::string source = build.provenance.cite();
        // one of the bundled major has its soname, and the loader searches LD_LIBRARY_PATH before
        // the wheel's own path
        const bool same_major = wanted.major() == ships.major();
        const bool shadowing_refused = same_major && wanted.minor() < ships.minor();
        if (shadowing_refused) {
            message += ", unless the system's is on LD_LIBRARY_PATH: then it is loaded first, and torch refuses it "
                       "at import as older than its own (\"cuDNN version incompatibility\")";
            source += " | " + k_torch_cudnn_check;
        } else if (same_major)
            message += ", unless the system's is on LD_LIBRARY_PATH: then it is loaded first, a newer minor torch "
                       "accepts";
        report.add(Verdict::warn, "cudnn-bundled", message, source);
        if (shadowing_refused)
            report.suggest("keep cuDNN " + wanted.text() + " off LD_LIBRARY_PATH, or install " + same_or_later(ships));
        return;
    }
    if (wanted.major() != ships.major())
        report.add(Verdict::fail, "cudnn-untested-major",
            build.name() + " was built and tested with cuDNN " + ships.text() + "; cuDNN " + wanted.text()
                + " is another major version",
            build.provenance.cite());
    else if (wanted.minor() < ships.minor()) {
        // the framework's cuDNN loader takes the build's major with an equal or higher minor only
        std::string refusal
            = "Loaded runtime CuDNN library: " + wanted.text() + " but source was compiled with: " + ships.text();
        report.add(Verdict::fail, "cudnn-older-than-build",
            build.name() + " was built with cuDNN " + ships.text() + " and refuses the older cuDNN " + wanted.text()
                + " at run time, which needs the build's major and an equal or higher minor (\"" + refusal + "\")",
            build.provenance.cite());
        report.suggest("install " + same_or_later(ships));
    } else
        report.add(Verdict::ok, "cudnn-newer-minor",
            build.name() + " was built with cuDNN " + ships.text() + " and loads the newer " + wanted.text()
                + ": its check at run time takes the build's major with an equal or higher minor",
            build.provenance.cite());
}

bool names(const std::vector<std::string>& architectures, const std::string& name)
{
    return std::find(architectures.begin(), architectures.end(), name) != architectures.end();
}

// What the release's support matrix says of a GPU of an architecture it marks deprecated.
void check_deprecated(const Context& ctx, const matrix::CudnnRelease& release, const std::string& label,
    const GpuTarget& gpu, Report& report)
{
    const matrix::Architecture* arch = ctx.matrix.architecture(gpu.compute_capability);
    if (arch && names(release.deprecated_architectures, arch->name))
        report.add(Verdict::warn, "cudnn-gpu-deprecated",
            label + " supports " + arch->name + " GPUs (" + gpu.label
                + ") only as deprecated: its support matrix marks them for removal in a later release",
            release.provenance.cite(), gpu.label);
}

// What the release's support matrix says of a GPU it supports: deprecated, or better with
// another CUDA.
void check_support_notes(const Context& ctx, const matrix::CudnnRelease& release, const std::string& label,
    const GpuTarget& gpu, Report& report)
{
    check_deprecated(ctx, release, label, gpu, report);
    const matrix::Architecture* arch = ctx.matrix.architecture(gpu.compute_capability);
    if (!arch)
        return;
    std::string source = release.provenance.cite();
    // Advice, not a limit: the release supports the GPU under every CUDA of its build.
    for (const auto& recommendation : release.recommended)
        if (names(recommendation.architectures, arch->name) && !recommendation.cuda.contains(*ctx.cuda))
            report.add(Verdict::ok, "cudnn-cuda-not-recommended",
                "NVIDIA recommends cuDNN " + release.version.text() + " with CUDA " + recommendation.cuda.describe()
                    + " on " + arch->name + " GPUs (" + gpu.label + "), not CUDA " + ctx.cuda->text(),
                source, gpu.label);
}

// The GPUs `loaded` carries no code for whatever its CUDA, those below the floor of the releases
// from 9.11 on; their labels, which its support-matrix rows need not judge again. A bundled
// cuDNN is the framework vendor's to change, so only the user's own is pointed at the last
// release that still carries them.
std::vector<std::string> check_gpu_code_floor(
    const Context& ctx, const CudnnVersion& loaded, bool bundled, Report& report)
{
    std::vector<std::string> below;
    const auto& floor = ctx.matrix.cudnn_gpu_floor();
    if (!floor || loaded < floor->from)
        return below;
    for (const auto& gpu : ctx.gpus) {
        if (!(gpu.compute_capability < floor->min))
            continue;
        report.add(Verdict::fail, "cudnn-gpu-unsupported",
            "cuDNN " + loaded.text() + " carries no code for " + gpu.with_sm() + ": from cuDNN "
                + floor->from.truncated(2).text() + " on, no build supports a compute capability below "
                + floor->min.text(),
            floor->provenance.cite(), gpu.label);
        below.push_back(gpu.label);
    }
    if (!below.empty() && !bundled)
        report.suggest("use cuDNN " + floor->last_below.text() + ", the last release with code for compute capability "
            + "below " + floor->min.text());
    return below;
}

} // namespace

// The oldest cuDNN release within `range` that has a build for `cuda`; none when no row does.
std::optional<CudnnVersion> oldest_cudnn_in(
    const matrix::Matrix& matrix, const CudnnRange& range, const CudaVersion& cuda)
{
    std::optional<CudnnVersion> oldest;
    for (const auto& release : matrix.cudnn_releases())
        if (range.contains(release.version) && (!oldest || release.version < *oldest)
            && std::any_of(release.builds.begin(), release.builds.end(),
                [&](const matrix::CudnnBuild& b) { return b.cuda.contains(cuda); }))
            oldest = release.version;
    return oldest;
}

void check_cudnn(const Context& ctx, Report& report)
{
    const auto& wanted = ctx.query.cudnn;
    // JAX's build takes any cuDNN in its range (its cudnn is the range's floor), so only the range rules it
    if (ctx.build && ctx.build->cudnn && wanted && !ctx.build->jax_build)
        check_against_build(ctx, *wanted, report);
    if (ctx.build && ctx.build->jax_build && wanted && !ctx.build->jax_build->cudnn.contains(*wanted))
        report.add(Verdict::fail, "cudnn-outside-framework-range",
            "JAX's " + ctx.build->jax_build->extra + " build needs cuDNN " + ctx.build->jax_build->cudnn.describe()
                + ", not " + wanted->text(),
            ctx.build->provenance.cite());

    // The cuDNN that is loaded: the framework's own when it bundles one, else the system's, else
    // for JAX (which takes any cuDNN of its range) the range's oldest release with a build for
    // the CUDA: its floor, where the floor's own release has none (8.8 for CUDA 12.1).
    bool bundled = ctx.build && ctx.build->cudnn_bundled && ctx.build->cudnn;
    std::optional<CudnnVersion> loaded = bundled ? ctx.build->cudnn : wanted;
    if (!loaded && ctx.build && ctx.build->jax_build && ctx.cuda)
        loaded = oldest_cudnn_in(ctx.matrix, ctx.build->jax_build->cudnn, *ctx.cuda);
    if (!loaded && ctx.build)
        loaded = ctx.build->cudnn; // the build's own, or JAX's floor when no release of its range has a row
    if (!loaded)
        return;
    const std::vector<std::string> below_floor = check_gpu_code_floor(ctx, *loaded, bundled, report);
    auto judged_by_floor = [&](const GpuTarget& gpu) {
        return std::find(below_floor.begin(), below_floor.end(), gpu.label) != below_floor.end();
    };
    if (!ctx.cuda) {
        // with no CUDA to pick a build, what holds for every build: a deprecation of the newest
        // release the version names
        const auto candidates = ctx.matrix.cudnn_releases_matching(*loaded);
        if (!candidates.empty())
            for (const auto& gpu : ctx.gpus)
                if (!judged_by_floor(gpu))
                    check_deprecated(
                        ctx, *candidates.front(), "cuDNN " + candidates.front()->version.text(), gpu, report);
        return;
    }

    // A release's support matrix has a row per CUDA range, each with its driver floor and GPUs
    // (9.10.2: Blackwell with CUDA 12.8 on R570, every older GPU with any CUDA 12 on R525): the
    // stack runs on the first row that admits its CUDA, driver and GPUs, and where none does the
    // first row of its CUDA says what is missing.
    auto candidates = ctx.matrix.cudnn_releases_matching(*loaded);
    if (candidates.empty()) { // a patch release NVIDIA published after, or between, those on record
        candidates = ctx.matrix.cudnn_releases_matching(loaded->truncated(2));
        std::vector<std::string> known;
        for (const auto* candidate : candidates)
            known.push_back(candidate->version.text());
        report.add(Verdict::unknown, "cudnn-release-unknown",
            "cuDNN " + loaded->text() + " is not on record: it is judged by the cuDNN " + loaded->truncated(2).text()
                + " releases that are (" + join_alternatives(known, " and ") + ")",
            "");
    }
    const matrix::CudnnRelease* release = nullptr;
    const matrix::CudnnBuild* match = nullptr;
    bool admitted = false;
    bool builds_known = false;
    for (const auto* candidate : candidates) {
        builds_known = builds_known || !candidate->builds.empty();
        for (const auto& b : candidate->builds) {
            if (admitted || !b.cuda.contains(*ctx.cuda))
                continue;
            bool fits = admits(b, ctx);
            if (!match || fits) {
                release = candidate;
                match = &b;
                admitted = fits;
            }
        }
    }
    if (!match) {
        if (builds_known && !bundled)
            report.add(Verdict::fail, "cudnn-cuda-mismatch",
                "cuDNN " + loaded->text() + " has no build for CUDA " + ctx.cuda->text(), "");
        else if (!builds_known && !bundled) // a bundled cuDNN is the framework vendor's choice
            report.add(Verdict::unknown, "cudnn-unconfirmed",
                "the CUDA builds of cuDNN " + loaded->text() + " are not on record (unconfirmed)", "");
        return;
    }
    std::string source = release->provenance.cite();
    std::string label = "cuDNN " + release->version.text() + " (CUDA " + match->cuda.describe() + " build)";
    if (release->provenance.unconfirmed())
        label += " [unconfirmed]";
    if (const auto driver = ctx.linux_driver(); driver && match->driver_linux && *driver < *match->driver_linux)
        report.add(Verdict::fail, "cudnn-driver-too-old",
            label + " needs driver >= " + match->driver_linux->text() + ", not " + driver->text(), source);
    for (const auto& gpu : ctx.gpus) {
        if (judged_by_floor(gpu))
            continue;
        if (const auto* arch = ctx.matrix.architecture(gpu.compute_capability); arch && arch->jetson) {
            // the support matrix lists the GPUs of cuDNN's x86_64 and server-Arm builds
            report.add(Verdict::ok, "cudnn-jetpack-build",
                "on " + gpu.label + " cuDNN " + release->version.text()
                    + " is the Jetson build JetPack installs, whose GPUs the support matrix of cuDNN's x86_64 and "
                      "server-Arm builds does not list",
                arch->jetson->provenance.cite(), gpu.label);
            continue;
        }
        if (match->compute_capabilities.empty()) {
            judge_by_neighbours(ctx, *release, label, gpu, report);
            continue;
        }
        if (cubin_runs_on(match->compute_capabilities, gpu.compute_capability)) {
            check_support_notes(ctx, *release, label, gpu, report);
            continue;
        }
        report.add(Verdict::fail, "cudnn-gpu-unsupported",
            label + " supports compute capabilities " + cc_list(match->compute_capabilities) + "; " + gpu.label + " is "
                + gpu.compute_capability.text(),
            source, gpu.label);
    }
}

} // namespace dlenv::resolve
