#include "resolve/rules.h"

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

} // namespace

bool check_jetson(const Context& ctx, const GpuTarget& gpu, const matrix::JetsonSoftware& jetson, Report& report)
{
    if (ctx.cuda)
        check_jetpack_cuda(ctx, gpu, jetson, report);
    const bool upstream_build = ctx.build && !ctx.build->from_source
        && (ctx.build->framework == Framework::torch || ctx.build->framework == Framework::tensorflow);
    if (!upstream_build || jetson.upstream_wheels)
        return true;
    const std::string framework(to_string(ctx.build->framework));
    report.add(Verdict::fail, "jetson-needs-jetpack-build",
        ctx.build->name() + " from PyPI" + (ctx.build->framework == Framework::torch ? " or download.pytorch.org" : "")
            + " carries no CUDA for " + gpu.with_sm()
            + ": its aarch64 wheels are CPU-only or built for server GPUs, so the framework does not see the GPU",
        jetson.provenance.cite(), gpu.label);
    report.suggest("on " + gpu.label + " install NVIDIA's " + framework + " build for the JetPack the device runs");
    return false;
}

} // namespace dlenv::resolve
