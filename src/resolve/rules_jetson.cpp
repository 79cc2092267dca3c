#include "resolve/rules.h"

#include <algorithm>

namespace dlenv::resolve {
namespace {

// A Jetson's CUDA is JetPack's, so the newest JetPack of its module (and the upgrade packages
// NVIDIA publishes for that JetPack) bound the CUDA an application may be built with.
void check_jetpack_cuda(const Context& ctx, const GpuTarget& gpu, const matrix::JetsonSoftware& jetson, Report& report)
{
    const CudaVersion& cuda = *ctx.cuda;
    const CudaVersion& newest = jetson.upgrade_cuda ? *jetson.upgrade_cuda : jetson.cuda;
    const std::string jetpack = "JetPack " + jetson.newest_jetpack;
    const std::string source = jetson.provenance.cite();
    if (cuda.compare_truncated(newest) > 0) {
        report.add(Verdict::fail, "jetson-cuda-beyond-jetpack",
            gpu.label + " runs CUDA up to " + newest.text() + ": its newest JetPack, " + jetson.newest_jetpack
                + ", ships CUDA " + jetson.cuda.text()
                + (jetson.upgrade_cuda ? ", and NVIDIA's upgrade packages bring it up to " + jetson.upgrade_cuda->text()
                                       : ", and no CUDA upgrade package serves it")
                + "; CUDA " + cuda.truncated(2).text() + " cannot run there",
            source, gpu.label);
        report.suggest("on " + gpu.label + " build for CUDA <= " + newest.text() + ", the CUDA of " + jetpack);
    } else if (cuda.compare_truncated(jetson.cuda) > 0) {
        const std::string package = "cuda-compat-" + std::to_string(cuda.major()) + "-" + std::to_string(cuda.minor());
        report.add(Verdict::warn, "jetson-cuda-upgrade-package",
            "CUDA " + cuda.truncated(2).text() + " on " + gpu.label + " needs NVIDIA's CUDA upgrade package (" + package
                + ") on " + jetpack + ", which ships CUDA " + jetson.cuda.text(),
            source, gpu.label);
    } else {
        report.add(Verdict::ok, "jetson-cuda-in-jetpack",
            gpu.label + "'s " + jetpack + " ships CUDA " + jetson.cuda.text() + ", which runs CUDA "
                + cuda.truncated(2).text() + " applications",
            source, gpu.label);
    }
}

// A torch wheel for server Arm on a Jetson that runs it: its code for the GPU is the wheel's.
// Where the wheel carries only an older minor's cubins (Orin's sm_87 on sm_80 code), they run,
// and PyTorch warns at start-up that the GPU is not one it was built for (holohub#1687).
void check_upstream_wheel_code(
    const FrameworkBuild& build, const GpuTarget& gpu, const matrix::JetsonSoftware& jetson, Report& report)
{
    if (!build.arch_list)
        return;
    const auto& archs = *build.arch_list;
    const auto& cc = gpu.compute_capability;
    if (std::find(archs.begin(), archs.end(), cc) != archs.end() || !cubin_runs_on(archs, cc))
        return; // its own code, or none of its major: the GPU rules judge the wheel
    report.add(Verdict::warn, "jetson-upstream-wheel",
        build.name() + "'s aarch64 wheel runs on " + gpu.label + " under JetPack " + jetson.newest_jetpack
            + "'s server-Arm CUDA, on older " + std::to_string(cc.major()) + ".x code: it carries no " + cc.sm_name()
            + ", and PyTorch warns at start-up that the GPU is not one it was built for",
        jetson.provenance.cite(), gpu.label);
    report.suggest("on " + gpu.label + " NVIDIA's torch build for JetPack carries " + cc.sm_name() + " code");
}

// torch's server-Arm wheels under a JetPack from before the move to server-Arm CUDA: the GPU
// is not one that CUDA sees.
void fail_torch_before_server_arm(
    const Context& ctx, const GpuTarget& gpu, const matrix::JetsonSoftware& jetson, Report& report)
{
    const FrameworkBuild& build = *ctx.build;
    report.add(Verdict::fail, "jetson-needs-jetpack-build",
        build.name() + "'s aarch64 wheel runs on " + gpu.label + " only under JetPack " + jetson.newest_jetpack
            + ", whose CUDA is the server-Arm one: under the JetPack of CUDA " + ctx.query.cuda->text()
            + " the framework does not see the GPU",
        jetson.provenance.cite(), gpu.label);
    report.suggest("on " + gpu.label + " move to JetPack " + jetson.newest_jetpack + ", or install NVIDIA's "
        + std::string(to_string(build.framework)) + " build for the JetPack the device runs");
}

// JAX's server-Arm wheels list the GPU, then fail at the first kernel (jax#22723, jax#40487).
void fail_jax_server_arm(
    const FrameworkBuild& build, const GpuTarget& gpu, const matrix::JetsonSoftware& jetson, Report& report)
{
    const auto& from = jetson.upstream_wheels_from;
    report.add(Verdict::fail, "jetson-needs-jetpack-build",
        build.name() + "'s aarch64 wheels are built for server-Arm CUDA, which " + gpu.with_sm()
            + (from ? " runs from CUDA " + from->text() + " (JetPack " + jetson.newest_jetpack + ") only"
                    : " does not run")
            + ": jax can list the GPU, then fail at its first operation with 'no kernel image is available for "
              "execution on the device'",
        jetson.provenance.cite(), gpu.label);
    report.suggest(from ? "on " + gpu.label + " use jax's CUDA " + std::to_string(from->major()) + " wheels (jax[cuda"
                + std::to_string(from->major()) + "]) under JetPack " + jetson.newest_jetpack
                        : "on " + gpu.label + " build jaxlib and its CUDA plugin from source for "
                + gpu.compute_capability.sm_name());
}

// PyPI's and PyTorch's aarch64 wheels are CPU builds or server-GPU ones: NVIDIA builds the
// frameworks for each JetPack.
void fail_no_jetson_build(
    const FrameworkBuild& build, const GpuTarget& gpu, const matrix::JetsonSoftware& jetson, Report& report)
{
    const auto& from = jetson.upstream_wheels_from;
    const bool torch = build.framework == Framework::torch;
    report.add(Verdict::fail, "jetson-needs-jetpack-build",
        build.name() + " from PyPI" + (torch ? " or download.pytorch.org" : "") + " carries no CUDA for "
            + gpu.with_sm()
            + ": its aarch64 wheels are CPU-only or built for server GPUs, so the framework does not "
              "see the GPU"
            + (from && torch ? "; torch's CUDA " + from->text() + " and later wheels run there under JetPack "
                        + jetson.newest_jetpack
                             : ""),
        jetson.provenance.cite(), gpu.label);
    report.suggest("on " + gpu.label + " install NVIDIA's " + std::string(to_string(build.framework))
        + " build for the JetPack the device runs");
}

} // namespace

bool Context::jetson_only() const
{
    return !gpus.empty() && std::all_of(gpus.begin(), gpus.end(), [this](const GpuTarget& gpu) {
        const auto* arch = matrix.architecture(gpu.compute_capability);
        return arch && arch->jetson;
    });
}

bool judge_jetpack_driver(const Context& ctx, Report& report)
{
    if (!ctx.query.driver || !ctx.jetson_only())
        return false;
    const GpuTarget& gpu = ctx.gpus.front();
    const auto& jetson = ctx.matrix.architecture(gpu.compute_capability)->jetson;
    report.add(Verdict::ok, "driver-jetpack",
        "driver " + ctx.query.driver->text() + " is read as the driver JetPack installs on " + gpu.label
            + ", which nvidia-smi numbers apart from the desktop releases: JetPack's CUDA decides what runs "
              "there, not the desktop drivers' floors or NVIDIA's amd64 images",
        jetson->provenance.cite(), gpu.label);
    return true;
}

bool runs_upstream_wheels(const matrix::JetsonSoftware& jetson, const CudaVersion& cuda)
{
    return jetson.upstream_wheels_from && !(cuda < *jetson.upstream_wheels_from);
}

bool check_jetson(const Context& ctx, const GpuTarget& gpu, const matrix::JetsonSoftware& jetson, Report& report)
{
    if (ctx.cuda)
        check_jetpack_cuda(ctx, gpu, jetson, report);
    if (!ctx.build || ctx.build->from_source || is_companion(ctx.build->framework))
        return true;
    const FrameworkBuild& build = *ctx.build;
    if (build.framework == Framework::jax && runs_upstream_wheels(jetson, build.cuda))
        return true; // its code for the GPU is the wheel's: the GPU rules judge it
    if (build.framework == Framework::torch && runs_upstream_wheels(jetson, build.cuda)) {
        // a --cuda below the wheels' is the JetPack's: one from before the move to server-Arm CUDA
        if (ctx.query.cuda && !runs_upstream_wheels(jetson, *ctx.query.cuda)) {
            fail_torch_before_server_arm(ctx, gpu, jetson, report);
            return false;
        }
        check_upstream_wheel_code(build, gpu, jetson, report);
        return true;
    }
    if (build.framework == Framework::jax)
        fail_jax_server_arm(build, gpu, jetson, report);
    else
        fail_no_jetson_build(build, gpu, jetson, report);
    return false;
}

} // namespace dlenv::resolve
