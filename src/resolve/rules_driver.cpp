#include "resolve/rules.h"

#include "core/closest.h"
#include "resolve/require_cuda.h"

#include <algorithm>

namespace dlenv::resolve {
namespace {

enum class ForwardCompatSupport { supported, unsupported, unknown };

ForwardCompatSupport forward_compat_support(const matrix::Matrix& matrix, const GpuTarget& gpu)
{
    if (!gpu.segment)
        return ForwardCompatSupport::unknown;
    const auto& segments = matrix.forward_compatibility().segments;
    return std::find(segments.begin(), segments.end(), *gpu.segment) != segments.end()
        ? ForwardCompatSupport::supported
        : ForwardCompatSupport::unsupported;
}

std::vector<const GpuTarget*> gpus_with(const Context& ctx, ForwardCompatSupport support)
{
    std::vector<const GpuTarget*> out;
    for (const auto& gpu : ctx.gpus)
        if (forward_compat_support(ctx.matrix, gpu) == support)
            out.push_back(&gpu);
    return out;
}

// "sm_86 is sold as datacenter, workstation and geforce parts"
std::string segments_of(const matrix::Matrix& matrix, const GpuTarget& gpu)
{
    const matrix::Architecture* arch = matrix.architecture(gpu.compute_capability);
    if (!arch || !arch->segments)
        return "which parts " + gpu.label + " is sold as is not known";
    std::vector<std::string> names;
    for (auto segment : *arch->segments)
        names.emplace_back(matrix::to_string(segment));
    return gpu.label + " is sold as " + join_alternatives(names, " and ") + " parts";
}

std::string upgrade_suggestion(const DriverVersion& toolkit_driver, const std::optional<DriverVersion>& floor)
{
    return "upgrade the driver to >= " + toolkit_driver.text()
        + (floor ? " (or >= " + floor->text() + " under minor-version compatibility)" : "");
}

// "the Windows driver" on a host that runs one, else "the driver"
std::string whose_driver(HostOs os)
{
    return runs_windows_driver(os) ? "the Windows driver" : "the driver";
}

// The forward-compatibility package of a CUDA line: cuda-compat-12-1.
std::string compat_package(const CudaVersion& cuda)
{
    return "cuda-compat-" + std::to_string(cuda.major()) + "-" + std::to_string(cuda.minor());
}

// The toolkit floor, minor-version and forward compatibility; true when the driver runs the line.
bool check_driver_floors(const Context& ctx, const matrix::CudaToolkit& toolkit, Report& report)
{
    const DriverVersion& driver = *ctx.query.driver;
    const CudaVersion& cuda = *ctx.cuda;
    const std::string line = cuda.truncated(2).text();
    const HostOs os = ctx.query.os;
    const auto needed = resolve::toolkit_driver(toolkit, os);
    if (!needed) {
        report.add(Verdict::unknown, "driver-floor-unknown",
            whose_driver(os) + " CUDA " + line + " needs is not on record: NVIDIA's release notes list none",
            toolkit.provenance.cite());
        return true;
    }
    const DriverVersion& toolkit_driver = *needed;

    if (driver >= toolkit_driver) {
        report.add(Verdict::ok, "driver-backward-compatible",
            "driver " + driver.text() + " runs CUDA " + line + " applications (the CUDA " + line + " toolkit driver is "
                + toolkit_driver.text() + "; newer drivers run older CUDA)",
            toolkit.provenance.cite());
        return true;
    }
    const auto* branch = runs_windows_driver(os) ? nullptr : branch_cuda(ctx.matrix, driver);
    if (branch && cuda.compare_truncated(branch->cuda) <= 0) {
        report.add(Verdict::ok, "driver-branch-cuda",
            "driver " + driver.text() + " runs CUDA " + line + " applications: the " + std::to_string(driver.major())
                + " branch reports CUDA " + branch->cuda.text() + " from its first release, below the CUDA " + line
                + " toolkit driver " + toolkit_driver.text(),
            branch->provenance.cite());
        return true;
    }

    const auto* floor = ctx.matrix.minor_version_floor(cuda.major());
    const auto floor_driver = floor ? minor_version_driver(*floor, os) : std::nullopt;
    if (floor_driver && driver >= *floor_driver) {
        report.add(Verdict::warn, "driver-minor-version-compat",
            "driver " + driver.text() + " is older than the CUDA " + line + " toolkit driver " + toolkit_driver.text()
                + "; it runs CUDA " + std::to_string(cuda.major())
                + ".x applications under minor-version compatibility (>= " + floor_driver->text()
                + ") with a limited feature set, and cannot JIT-compile PTX from a newer toolchain "
                  "(cudaErrorUnsupportedPtxVersion, 222)",
            floor->provenance.cite_with(toolkit.provenance));
        report.suggest("for the full CUDA " + line + " feature set, upgrade the driver to >= " + toolkit_driver.text());
        return true;
    }

    std::string floor_text = floor_driver ? ", and minor-version compatibility needs >= " + floor_driver->text() : "";
    const auto& forward = ctx.matrix.forward_compatibility();
    if (ctx.query.forward_compat) {
        if (!gpus_with(ctx, ForwardCompatSupport::unsupported).empty()) { // refused by check_forward_compat_gpus
            report.suggest(upgrade_suggestion(toolkit_driver, floor_driver));
            return false;
        }
        for (const auto* gpu : gpus_with(ctx, ForwardCompatSupport::unknown)) {
            const auto* arch = ctx.matrix.architecture(gpu->compute_capability);
            report.add(Verdict::warn, "forward-compat-gpu-unknown",
                "forward compatibility (" + compat_package(cuda) + ") works only on data-center GPUs and Jetson, and "
                    + segments_of(ctx.matrix, *gpu) + ": name the model to know whether it works",
                arch ? forward.provenance.cite_with(arch->provenance) : forward.provenance.cite(), gpu->label);
        }
        report.add(Verdict::warn, "driver-forward-compat",
            "driver " + driver.text() + " is below CUDA " + line + "'s floor (toolkit " + toolkit_driver.text()
                + floor_text + "); it runs only with the " + compat_package(cuda) + " package (forward compatibility)"
                + (ctx.gpus.empty() ? ", which works only on data-center GPUs and Jetson: name --gpu to check" : ""),
            forward.provenance.cite());
        return true;
    }

    std::string message = "driver " + driver.text() + " cannot run CUDA " + line
        + ": the toolkit needs >= " + toolkit_driver.text() + floor_text;
    // forward compatibility is a Linux package
    const bool linux = !runs_windows_driver(os);
    bool all_datacenter
        = linux && !ctx.gpus.empty() && gpus_with(ctx, ForwardCompatSupport::supported).size() == ctx.gpus.size();
    auto consumer = linux ? gpus_with(ctx, ForwardCompatSupport::unsupported) : std::vector<const GpuTarget*> {};
    if (!consumer.empty())
        message += "; forward compatibility (cuda-compat) is not an option on " + consumer.front()->label
            + ", only on data-center GPUs and Jetson";
    report.add(Verdict::fail, "driver-too-old", message,
        floor_driver ? toolkit.provenance.cite_with(floor->provenance) : toolkit.provenance.cite());
    report.suggest(upgrade_suggestion(toolkit_driver, floor_driver));
    if (all_datacenter)
        report.suggest(
            "or keep the driver and install " + compat_package(cuda) + " (forward compatibility, --forward-compat)");
    return false;
}

// "535.154.05" or "535.129.03 and 535.146.02"
std::string versions_text(const std::vector<DriverVersion>& versions)
{
    std::vector<std::string> texts;
    for (const auto& version : versions)
        texts.push_back(version.text());
    return join_alternatives(texts, " and ");
}

// A branch no Linux release on record has, between branches that have them: a Windows
// driver's number (561.17), which native Windows and WSL 2 report.
bool windows_numbered(const matrix::Matrix& matrix, std::uint32_t branch)
{
    if (matrix.driver_releases(branch))
        return false;
    const auto span = matrix.driver_release_span();
    return span && span->oldest < branch && branch < span->newest;
}

// A driver number no Linux release carries (a vGPU host driver's, a Windows driver's, a typo)
// is likely not what the host runs; the floors still judge the number, so this warns rather
// than fails. A Windows driver's number is judged by CUDA's Windows floors alone.
void check_driver_release(const Context& ctx, Report& report)
{
    const DriverVersion& driver = *ctx.query.driver;
    if (runs_windows_driver(ctx.query.os)) {
        report.add(Verdict::ok, "driver-windows",
            "driver " + driver.text() + " is read as a Windows driver (" + std::string(describe(ctx.query.os))
                + "): CUDA's floors judge it in NVIDIA's Windows numbers, a GPU architecture's last series by "
                  "the series its number falls in; those the matrix keeps in Linux numbers only (cuDNN's, a "
                  "GPU architecture's first release) do not, and whether it is a released Windows driver is "
                  "not known",
            "");
        return;
    }
    const std::uint32_t branch = driver.major();
    const matrix::DriverReleases* known = ctx.matrix.driver_releases(branch);
    if (known && known->lists(driver))
        return;
    if (known && known->knows(driver)) {
        report.add(Verdict::warn, "driver-not-released",
            "driver " + driver.text()
                + " is not a released Linux driver; nearest: " + versions_text(known->nearest(driver)),
            known->provenance.cite());
        report.suggest("name the driver nvidia-smi reports where the container runs (in the VM on a vGPU host): "
                       "vGPU host and Windows drivers carry numbers of their own");
        return;
    }
    if (windows_numbered(ctx.matrix, branch)) {
        report.add(Verdict::warn, "driver-windows-number",
            "driver " + driver.text() + " is no Linux driver: the Linux releases on record have no branch "
                + std::to_string(branch)
                + ", and Windows drivers carry numbers of their own (native Windows and WSL 2 report them)",
            ctx.matrix.driver_releases().front().provenance.cite());
        report.suggest("on Windows pass --os windows, or --os wsl2 under WSL 2, to judge it by CUDA's Windows floors");
        return;
    }
    std::string why = !known       ? "the matrix lists no Linux releases of branch " + std::to_string(branch)
        : !known->complete_through ? "the matrix lists only some Linux releases of branch " + std::to_string(branch)
                                   : "the matrix knows every Linux release of branch " + std::to_string(branch)
            + " only through " + known->complete_through->text();
    report.add(Verdict::ok, "driver-release-unknown",
        "whether driver " + driver.text() + " is a released Linux driver is not known: " + why,
        known ? known->provenance.cite() : "");
}

// cuda-compat's libcuda refuses a GPU outside the segments forward compatibility serves
// whatever the driver: loading it is the failure, not the version gap it was meant to bridge.
void check_forward_compat_gpus(const Context& ctx, Report& report)
{
    if (!ctx.query.forward_compat)
        return;
    const std::string package = ctx.cuda ? compat_package(*ctx.cuda) : "the cuda-compat package";
    for (const auto* gpu : gpus_with(ctx, ForwardCompatSupport::unsupported))
        report.add(Verdict::fail, "forward-compat-unsupported-gpu",
            "forward compatibility (" + package + ") works only on data-center GPUs and Jetson; on " + gpu->label
                + " CUDA initialisation fails with cudaErrorCompatNotSupportedOnDevice (804)",
            ctx.matrix.forward_compatibility().provenance.cite(), gpu->label);
    // The package's libcuda is of the toolkit's own driver series, which a GPU whose last series
    // is older does not run: a Tesla K80 (R470) with cuda-compat-11-6 (R510).
    const matrix::CudaToolkit* toolkit = ctx.cuda ? ctx.matrix.first_toolkit(*ctx.cuda) : nullptr;
    if (!toolkit || !toolkit->driver_linux)
        return;
    const std::uint32_t series = toolkit->driver_linux->major();
    for (const auto* gpu : gpus_with(ctx, ForwardCompatSupport::supported)) {
        const matrix::Architecture* arch = ctx.matrix.architecture(gpu->compute_capability);
        if (!arch || !arch->max_driver_branch || *arch->max_driver_branch >= series)
            continue;
        report.add(Verdict::fail, "forward-compat-dropped-gpu",
            package + " carries the libcuda of the " + std::to_string(series) + " series, and the "
                + std::to_string(*arch->max_driver_branch) + " series is the last that supports " + arch->name + " ("
                + gpu->label + "): CUDA initialisation fails on it",
            ctx.matrix.forward_compatibility().provenance.cite_with(arch->provenance), gpu->label);
    }
}

// jax[cudaNN] brings the newest nvidia-cuda-nvcc-cuNN pip has, and XLA compiles with its ptxas:
// on a driver older than that CUDA's, XLA disables parallel compilation (jax#19821). A CUDA
// the query names is the CUDA installed; the local extra, and a CUDA jaxlib named by its label
// alone, use the system's.
void check_jax_ptxas(const Context& ctx, Report& report)
{
    const auto& build = *ctx.build;
    const auto& jax = *build.jax_build;
    if (jax.plugin.empty() || build.extra != jax.extra || build.loads_host_cuda || ctx.query.cuda)
        return;
    // the newest release pip may bring, and the newest whose driver floor is on record: the
    // floor of its X.Y line, whose update releases share their ptxas's PTX version
    const matrix::CudaToolkit* latest = nullptr;
    const matrix::CudaToolkit* newest = nullptr;
    for (const auto& toolkit : ctx.matrix.toolkits())
        if (jax.cuda.contains(toolkit.version)) {
            if (!latest || latest->version < toolkit.version)
                latest = &toolkit;
            if (toolkit.driver_linux && (!newest || newest->version < toolkit.version))
                newest = &toolkit;
        }
    if (newest)
        newest = ctx.matrix.first_toolkit(newest->version.truncated(2));
    const auto wanted = newest ? toolkit_driver(*newest, ctx.query.os) : std::nullopt;
    const DriverVersion& driver = *ctx.query.driver;
    if (!wanted || !(driver < *wanted))
        return;
    const std::string major = std::to_string(newest->version.major());
    const std::string line = newest->version.truncated(2).text();
    const std::string latest_line = latest->version.truncated(2).text();
    report.add(Verdict::warn, "jax-ptxas-newer-than-driver",
        "jax[" + jax.extra + "] brings the newest nvidia-cuda-nvcc-cu" + major + " from pip, whose ptxas (CUDA "
            + latest_line + ") wants driver >= " + wanted->text()
            + (latest_line == line ? "" : " (CUDA " + line + "'s; CUDA " + latest_line + "'s is not on record)")
            + "; on driver " + driver.text()
            + " XLA disables parallel compilation (\"the driver is older than the PTX compiler version\"), so "
              "compiling is slower",
        newest->provenance.cite());
    report.suggest("upgrade the driver to >= " + wanted->text() + ", or pin nvidia-cuda-nvcc-cu" + major
        + " to the CUDA the driver runs");
}

// "3.5, 5.2, 6.0, 6.1 and 7.0"
std::string capabilities_text(const std::vector<ComputeCapability>& list)
{
    std::vector<std::string> texts;
    for (const auto& cc : list)
        texts.push_back(cc.text());
    return join_alternatives(texts, " and ");
}

// JAX before 0.4.8 compiles at run time with the system CUDA toolkit's ptxas, and its guide
// requires a driver at least as new as that toolkit's: minor-version compatibility, which
// cannot JIT-compile the newer PTX, does not do.
void check_jax_toolkit_driver(const Context& ctx, const matrix::CudaToolkit& toolkit, Report& report)
{
    const FrameworkBuild& build = *ctx.build;
    const auto needed = toolkit_driver(toolkit, ctx.query.os);
    if (!build.jax_build->toolkit_driver_required || !needed || !(*ctx.query.driver < *needed))
        return;
    const std::string line = ctx.cuda->truncated(2).text();
    report.add(Verdict::fail, "jax-driver-below-toolkit",
        build.name() + " needs a driver at least as new as the CUDA " + line + " toolkit's, >= " + needed->text()
            + " (\"a strict requirement\" in JAX's guide: it JIT-compiles with that toolkit's ptxas); driver "
            + ctx.query.driver->text() + " runs CUDA " + line + " only under minor-version compatibility",
        build.provenance.cite());
    report.suggest("upgrade the driver to >= " + needed->text() + ", or use the CUDA toolkit the driver ships with");
    // where no --cuda named the toolkit, another build of the release, of an older CUDA, may
    // be one the driver runs
    if (ctx.query.cuda)
        return;
    for (const auto& other : build.jax->builds) {
        const auto* oldest = other.cuda.min ? ctx.matrix.first_toolkit(*other.cuda.min) : nullptr;
        const auto runs = oldest ? toolkit_driver(*oldest, ctx.query.os) : std::nullopt;
        if (&other != build.jax_build && runs && !(*ctx.query.driver < *runs))
            report.suggest("use " + build.package() + " " + build.release() + "'s " + other.extra + " build, for CUDA "
                + other.cuda.min->text() + " and later: driver " + ctx.query.driver->text() + " meets the CUDA "
                + other.cuda.min->text() + " toolkit's (>= " + runs->text() + ")");
    }
}

// jaxlib's CUDA wheels of 0.1.73-0.1.76 ask a driver of their own: JAX compiles at run time,
// and on a GPU the wheels carry no kernels for the driver JIT-compiles their PTX, made by a
// newer toolchain than an older driver reads. On the others an older driver may do.
void check_jax_driver(const Context& ctx, Report& report)
{
    const FrameworkBuild& build = *ctx.build;
    const matrix::JaxBuild& jax = *build.jax_build;
    const auto driver = ctx.linux_driver();
    if (!jax.driver_linux || !driver || !(*driver < *jax.driver_linux))
        return;
    const std::string kernels = jax.cubins ? capabilities_text(*jax.cubins) : "not on record";
    const GpuTarget* outside = nullptr;
    for (const auto& gpu : ctx.gpus)
        if (!outside && !(jax.cubins && cubin_runs_on(*jax.cubins, gpu.compute_capability)))
            outside = &gpu;
    const std::string needs = build.name() + " needs driver >= " + jax.driver_linux->text();
    report.suggest("upgrade the driver to >= " + jax.driver_linux->text());
    if (!outside) {
        report.add(Verdict::warn, "jax-driver-below-recommended",
            needs + " in JAX's guide; driver " + driver->text() + " may do only on GPUs its wheels carry kernels for ("
                + kernels + ")" + (ctx.gpus.empty() ? ": name --gpu to check" : ", as every GPU named is"),
            build.provenance.cite());
        return;
    }
    report.add(Verdict::fail, "jax-driver-too-old",
        needs + ": its wheels carry no kernels for " + outside->label + " (compute capability "
            + outside->compute_capability.text() + "; they carry " + kernels
            + "), so the driver JIT-compiles their PTX, which driver " + driver->text()
            + " refuses (\"the provided PTX was compiled with an unsupported toolchain\")",
        build.provenance.cite(), outside->label);
}

} // namespace

std::optional<DriverVersion> toolkit_driver(const matrix::CudaToolkit& toolkit, HostOs os)
{
    return runs_windows_driver(os) ? toolkit.driver_windows : toolkit.driver_linux;
}

std::optional<DriverVersion> minor_version_driver(const matrix::MinorVersionFloor& floor, HostOs os)
{
    return runs_windows_driver(os) ? floor.driver_windows : std::optional(floor.driver_linux);
}

namespace {

// A CUDA line whose releases carry no driver floor (from 13.4 NVIDIA's notes name a driver
// branch, not a release): below its major's minor-version floor the driver runs none of it;
// above, what it needs is not on record.
void check_branch_only_line(const Context& ctx, Report& report)
{
    const std::string line = ctx.cuda->truncated(2).text();
    const auto releases = ctx.matrix.toolkit_releases(ctx.cuda->truncated(2));
    if (releases.empty())
        return;
    const auto* floor = ctx.matrix.minor_version_floor(ctx.cuda->major());
    const auto lowest = floor ? minor_version_driver(*floor, ctx.query.os) : std::nullopt;
    if (lowest && *ctx.query.driver < *lowest) {
        report.add(Verdict::fail, "driver-too-old",
            "driver " + ctx.query.driver->text() + " cannot run CUDA " + line + ": CUDA "
                + std::to_string(ctx.cuda->major()) + ".x needs >= " + lowest->text()
                + " even under minor-version compatibility",
            floor->provenance.cite());
        report.suggest("upgrade the driver to >= " + lowest->text());
        return;
    }
    report.add(Verdict::unknown, "driver-floor-unknown",
        "the driver CUDA " + line + " needs is not on record: no CUDA " + line
            + " release of the matrix carries a driver floor (--explain shows its rows)",
        releases.front()->provenance.cite());
}

} // namespace

std::string driver_requirement(const matrix::Matrix& matrix, const CudaVersion& cuda, HostOs os)
{
    const auto* toolkit = matrix.first_toolkit(cuda);
    const auto* floor = matrix.minor_version_floor(cuda.major());
    const auto needed = toolkit ? toolkit_driver(*toolkit, os) : std::nullopt;
    const auto lowest = floor ? minor_version_driver(*floor, os) : std::nullopt;
    std::string out = needed ? "driver >= " + needed->text() : "driver of CUDA " + cuda.text();
    if (needed && lowest && *lowest < *needed)
        out += ", or >= " + lowest->text() + " under minor-version compatibility";
    return out;
}

void check_driver(const Context& ctx, Report& report)
{
    check_forward_compat_gpus(ctx, report);
    if (!ctx.query.driver || judge_jetpack_driver(ctx, report))
        return;
    check_driver_release(ctx, report);
    if (ctx.build && ctx.build->jax_build)
        check_jax_ptxas(ctx, report);
    if (!ctx.cuda)
        return;
    const auto* toolkit = ctx.matrix.first_toolkit(*ctx.cuda);
    if (!toolkit) {
        check_branch_only_line(ctx, report);
        return;
    }
    bool runs = check_driver_floors(ctx, *toolkit, report);
    if (runs && ctx.build && ctx.build->jax_build) {
        check_jax_toolkit_driver(ctx, *toolkit, report);
        check_jax_driver(ctx, report);
    }
    // WSL 2's container toolkit reads the Windows driver's number: the image's cuda>= term
    // holds by CUDA's Windows floors, its brand terms compare that number as it is
    if (ctx.query.os == HostOs::linux_host || (ctx.query.os == HostOs::windows_wsl2 && toolkit->driver_windows))
        check_image_gate(ctx, runs, report);
    else if (ctx.query.os == HostOs::windows_wsl2 && runs)
        report.add(Verdict::unknown, "image-require-cuda-wsl2",
            "whether the NVIDIA container toolkit under WSL 2 starts the image dlenv builds for CUDA "
                + ctx.cuda->truncated(2).text() + " is not judged: under WSL 2 its NVIDIA_REQUIRE_CUDA's cuda term "
                + "is read by CUDA's Windows driver floors, and NVIDIA lists none for CUDA "
                + ctx.cuda->truncated(2).text(),
            toolkit->provenance.cite());
}

} // namespace dlenv::resolve
