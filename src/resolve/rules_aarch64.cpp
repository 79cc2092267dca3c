#include "resolve/rules.h"

namespace dlenv::resolve {

void check_aarch64_host(const Context& ctx, const GpuTarget& gpu, Report& report)
{
    const auto& facts = ctx.matrix.torch_aarch64();
    if (!facts || !ctx.build || ctx.build->framework != Framework::torch || ctx.build->from_source
        || !sold_with_grace(gpu))
        return;
    const FrameworkBuild& build = *ctx.build;
    const Pep440Version release = build.version ? *build.version : Pep440Version::parse(build.line);
    const std::string host = "Linux aarch64, the host of " + gpu.label + " (Grace)";
    if (release < facts->first_cuda_release) {
        report.add(Verdict::fail, "torch-no-aarch64-cuda-build",
            "torch " + release.public_str() + " has no CUDA build for " + host
                + ": PyTorch's aarch64 CUDA wheels begin with " + facts->first_cuda_release.public_str()
                + ", and its aarch64 wheels before are the CPU build",
            facts->provenance.cite(), gpu.label);
        report.suggest("on " + gpu.label + " use torch >= " + facts->first_cuda_release.public_str()
            + " from PyTorch's CUDA index (https://download.pytorch.org/whl/cuXYZ), or NVIDIA's PyTorch container");
        return;
    }
    // a build named by its label or its CUDA is installed from PyTorch's index
    const bool from_pypi = build.pypi_default && !ctx.query.cuda;
    if (from_pypi && !(facts->pypi_cpu_only_through < Pep440Version::parse(build.line)))
        report.add(Verdict::fail, "torch-aarch64-pypi-cpu",
            "pip's torch " + release.public_str() + " for " + host + ", is the CPU build, which leaves " + gpu.label
                + " unused: install the " + build.variant + " build from https://download.pytorch.org/whl/"
                + build.variant,
            facts->provenance.cite(), gpu.label);
}

} // namespace dlenv::resolve
