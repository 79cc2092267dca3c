#include "resolve/rules.h"

#include <optional>

namespace dlenv::resolve {
namespace {

// What one framework build needs of a library NVIDIA ships as one pip wheel per CUDA
// major (nvidia-cudnn-cu12, nvidia-nccl-cu12): one site-packages holds one version of it.
template <typename Version> struct LibraryNeed {
    const FrameworkBuild* build;
    VersionRange<Version> versions; // a pin is a range of one version
    std::string says; // "carries cuDNN 9.1.0.70", "needs cuDNN 9.8-9.99"
    const matrix::Provenance* provenance; // the build's, or the need's own where it has one
};

template <typename Version>
LibraryNeed<Version> pinned(const FrameworkBuild& build, const std::string& library, const Version& version)
{
    return { &build, { version, version }, "carries " + library + " " + version.text(), &build.provenance };
}

// A need with its own sources says so when they are unconfirmed: the verdict rests on it.
template <typename Version>
LibraryNeed<Version> ranged(const FrameworkBuild& build, const std::string& library, const VersionRange<Version>& range,
    const matrix::Provenance* own = nullptr)
{
    std::string says = "needs " + library + " " + range.describe();
    if (own && own->unconfirmed())
        says += " (unconfirmed)";
    return { &build, range, says, own ? own : &build.provenance };
}

std::optional<LibraryNeed<CudnnVersion>> cudnn_need(const FrameworkBuild& build)
{
    if (build.jax_build) {
        const matrix::JaxBuild& jax = *build.jax_build;
        if (!jax.pip_cudnn_min || build.extra != jax.extra)
            return ranged(build, "cuDNN", jax.cudnn);
        auto need = ranged(build, "cuDNN", CudnnRange { jax.pip_cudnn_min, jax.cudnn.max });
        need.says += " (its [" + jax.extra + "] extra's pin)";
        return need;
    }
    if (build.torch && build.cudnn)
        return pinned(build, "cuDNN", *build.cudnn);
    if (build.tensorflow && build.cudnn) { // tested with X.Y: the soname it loads is the major's
        std::string major = std::to_string(build.cudnn->major());
        return LibraryNeed<CudnnVersion> { &build,
            { CudnnVersion::parse(major + ".0"), CudnnVersion::parse(major + ".99") },
            "loads cuDNN " + major + " (tested with " + build.cudnn->text() + ")", &build.provenance };
    }
    return std::nullopt;
}

std::optional<LibraryNeed<NcclVersion>> nccl_need(const FrameworkBuild& build)
{
    if (build.jax_build)
        return ranged(build, "NCCL", build.jax_build->nccl);
    if (build.torch_variant && build.torch_variant->nccl)
        return pinned(build, "NCCL", *build.torch_variant->nccl);
    if (build.tensorflow && build.tensorflow->nccl) // what its pip extra pins
        return ranged(build, "NCCL", build.tensorflow->nccl->versions, &build.tensorflow->nccl->provenance);
    return std::nullopt;
}

// "nvidia-cudnn-cu12": the one wheel of `library` per CUDA major that a site-packages holds.
std::string wheel_package(const std::string& library, const FrameworkBuild& build)
{
    return "nvidia-" + library + "-cu" + std::to_string(build.cuda.major());
}

template <typename Version> bool overlap(const VersionRange<Version>& a, const VersionRange<Version>& b)
{
    auto beyond = [](const VersionRange<Version>& low, const VersionRange<Version>& high) {
        return low.max && high.min && high.min->compare_truncated(*low.max) > 0;
    };
    return !beyond(a, b) && !beyond(b, a);
}

template <typename Version>
void compare_needs(const std::string& library, const std::string& wheel, const std::optional<LibraryNeed<Version>>& a,
    const std::optional<LibraryNeed<Version>>& b, const FrameworkBuild& first, const FrameworkBuild& second,
    Report& report)
{
    const std::string code = "frameworks-" + wheel;
    if (!a || !b) {
        const FrameworkBuild& unknown = !a ? first : second;
        report.add(Verdict::unknown, code,
            "the matrix does not say which " + library + " " + unknown.name() + " needs, so whether it shares one with "
                + (!a ? second : first).name() + " is not known",
            first.provenance.cite() + " | " + second.provenance.cite());
        return;
    }
    const std::string sources = a->provenance->cite() + " | " + b->provenance->cite();
    std::string package = wheel_package(wheel, first);
    std::string both = a->build->name() + " " + a->says + " and " + b->build->name() + " " + b->says;
    if (overlap(a->versions, b->versions))
        report.add(Verdict::ok, code, both + ": one " + package + " serves both", sources);
    else
        report.add(Verdict::fail, code,
            both + ": one environment holds one " + package + ", so they cannot be installed together", sources);
}

// TensorFlow installs NVIDIA's wheels only with its and-cuda extra (2.14 on): without it,
// pip brings it none to clash with another framework's, and it loads the system's.
bool installs_nvidia_wheels(const FrameworkBuild& build)
{
    return !build.tensorflow || !build.extra.empty();
}

std::string without_wheels(const FrameworkBuild& tensorflow, const std::string& package)
{
    const std::string& extra = tensorflow.tensorflow->pip_extra;
    return tensorflow.name()
        + (extra.empty() ? " has no pip extra that brings CUDA" : " is installed without [" + extra + "]")
        + ", so pip brings it no " + package;
}

// Its cuDNN soname carries the major, so the system's must be of the major it loads.
void compare_system_cudnn(const FrameworkBuild& tensorflow, const FrameworkBuild& other, Report& report)
{
    auto system = cudnn_need(tensorflow);
    auto wheel = cudnn_need(other);
    if (!system || !wheel) {
        compare_needs("cuDNN", "cudnn", system, wheel, tensorflow, other, report);
        return;
    }
    std::string both = without_wheels(tensorflow, wheel_package("cudnn", tensorflow)) + ": it " + system->says
        + " from the system, and " + other.name() + " " + wheel->says;
    std::string sources = system->provenance->cite() + " | " + wheel->provenance->cite();
    if (overlap(system->versions, wheel->versions))
        report.add(Verdict::ok, "frameworks-cudnn", both + ", of the same major", sources);
    else
        report.add(Verdict::warn, "frameworks-cudnn",
            both + ": the image must carry cuDNN " + std::to_string(system->versions.min->major())
                + " itself, for pip brings only " + other.name() + "'s",
            sources);
}

// Its NCCL need on record is what the extra pins, which does not apply without it.
void report_system_nccl(const FrameworkBuild& tensorflow, const FrameworkBuild& other, Report& report)
{
    const matrix::TensorflowRelease& release = *tensorflow.tensorflow;
    std::string with_extra = release.pip_extra.empty() || !release.nccl
        ? ""
        : " (with [" + release.pip_extra + "] it would need NCCL " + release.nccl->versions.describe() + ")";
    report.add(Verdict::ok, "frameworks-nccl",
        without_wheels(tensorflow, wheel_package("nccl", tensorflow)) + " to clash with " + other.name() + "'s"
            + with_extra,
        tensorflow.provenance.cite() + " | " + other.provenance.cite());
}

void compare_pair(const FrameworkBuild& a, const FrameworkBuild& b, Report& report)
{
    if (a.cuda.major() != b.cuda.major()) {
        // nvidia-*-cu12 and the CUDA 13 wheels have other names, so pip installs both
        report.add(Verdict::warn, "frameworks-cuda-majors",
            a.name() + " runs on CUDA " + std::to_string(a.cuda.major()) + " and " + b.name() + " on CUDA "
                + std::to_string(b.cuda.major())
                + ": each loads its own CUDA libraries into one process, and the driver must run both",
            a.provenance.cite() + " | " + b.provenance.cite());
        return;
    }
    if (!installs_nvidia_wheels(a) || !installs_nvidia_wheels(b)) {
        const FrameworkBuild& tensorflow = installs_nvidia_wheels(a) ? b : a;
        const FrameworkBuild& other = &tensorflow == &a ? b : a;
        compare_system_cudnn(tensorflow, other, report);
        report_system_nccl(tensorflow, other, report);
        return;
    }
    compare_needs("cuDNN", "cudnn", cudnn_need(a), cudnn_need(b), a, b, report);
    compare_needs("NCCL", "nccl", nccl_need(a), nccl_need(b), a, b, report);
}

} // namespace

void check_coexistence(const std::vector<FrameworkBuild>& builds, Report& report)
{
    for (std::size_t i = 0; i < builds.size(); ++i)
        for (std::size_t j = i + 1; j < builds.size(); ++j)
            compare_pair(builds[i], builds[j], report);
}

} // namespace dlenv::resolve
