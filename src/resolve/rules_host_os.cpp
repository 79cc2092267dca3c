#include "resolve/rules.h"

#include <algorithm>

namespace dlenv::resolve {

namespace {

// The block of one framework's file, of the three that have one; null where it has none.
template <typename Block>
const Block* framework_block(Framework framework, const std::optional<Block>& torch,
    const std::optional<Block>& tensorflow, const std::optional<Block>& jax)
{
    const std::optional<Block>* block = framework == Framework::torch ? &torch
        : framework == Framework::tensorflow                          ? &tensorflow
        : framework == Framework::jax                                 ? &jax
                                                                      : nullptr;
    return block && *block ? &**block : nullptr;
}

// A framework's macOS wheels are CPU (or Metal) builds, TensorFlow's from 1.2.
void fail_no_macos_cuda(const FrameworkBuild& build, const matrix::MacosGpuSupport& macos, Report& report)
{
    const std::string framework = build.package();
    report.add(Verdict::fail, "framework-no-macos-gpu",
        framework + " " + build.release() + " has no CUDA on macOS: " + framework + "'s macOS wheels are CPU builds"
            + (macos.cuda_through ? " after " + macos.cuda_through->public_str() : std::string())
            + ", so it sees no NVIDIA GPU there",
        macos.provenance.cite());
    report.suggest("run " + framework + " " + build.release()
        + " on Linux with an NVIDIA GPU (or in dlenv's Linux image); on macOS it runs on the CPU");
}

// A query that names nothing of a GPU stack (no GPU, driver, CUDA, cuDNN or forward
// compatibility) and only CPU builds or plain wheels: no CUDA label, CUDA extra, GPU package or
// plugin. On a host whose plain wheels are CPU builds, that stack runs as asked.
bool asks_cpu_wheels(const Query& query)
{
    if (names_gpu_stack(query))
        return false;
    return std::all_of(query.frameworks.begin(), query.frameworks.end(), [](const FrameworkRequest& request) {
        return request.names_cpu_build()
            || (request.local.empty() && request.extra.empty() && request.jax_plugin.empty()
                && request.tensorflow_package == TensorflowPackage::tensorflow);
    });
}

// A query that names nothing of a GPU stack and CPU builds alone (torch's +cpu, jax[cpu],
// tensorflow-cpu), beside their companions.
bool asks_cpu_builds(const Query& query)
{
    return !names_gpu_stack(query)
        && std::all_of(query.frameworks.begin(), query.frameworks.end(), [](const FrameworkRequest& request) {
               return request.names_cpu_build() || is_companion(request.framework);
           });
}

// A framework with no CUDA on native Windows, asked for its CPU wheels: they run where they are
// published (jaxlib's from 0.4.13).
void judge_windows_cpu_wheels(
    const FrameworkBuild& build, const matrix::WindowsGpuSupport& windows, const std::string& no_gpu, Report& report)
{
    const std::string framework = build.package();
    const std::string name = framework + " " + build.release();
    const auto& from = windows.cpu_wheels_from;
    if (from && Pep440Version::parse(build.release()) < *from) {
        report.add(Verdict::fail, "framework-no-windows-wheel",
            name + " publishes no wheels for native Windows: " + framework + "'s Windows wheels, CPU builds, start at "
                + from->public_str() + ", so pip finds none there",
            windows.provenance.cite());
        report.suggest("use " + framework + " >= " + from->public_str() + " on native Windows, or run " + name
            + " under WSL 2 (--os wsl2)");
        return;
    }
    const bool experimental = windows.cpu_experimental;
    report.add(experimental ? Verdict::warn : Verdict::ok,
        experimental ? "framework-windows-cpu-experimental" : "framework-windows-cpu",
        "pip's " + name + " on native Windows is its CPU build (" + no_gpu + ")"
            + (experimental ? ", experimental in " + std::string(to_string(build.framework)) + "'s own words" : "")
            + ": no GPU, driver or CUDA is named, so it runs as asked",
        windows.provenance.cite());
}

} // namespace

const matrix::WindowsGpuSupport* windows_gpu_support(const matrix::Matrix& matrix, Framework framework)
{
    return framework_block(framework, matrix.torch_windows(), matrix.tensorflow_windows(), matrix.jax_windows());
}

const matrix::MacosGpuSupport* macos_gpu_support(const matrix::Matrix& matrix, Framework framework)
{
    return framework_block(framework, matrix.torch_macos(), matrix.tensorflow_macos(), matrix.jax_macos());
}

bool has_macos_cuda(const matrix::Matrix& matrix, const FrameworkBuild& build)
{
    const auto* macos = macos_gpu_support(matrix, build.framework);
    return !macos || (macos->cuda_through && !(*macos->cuda_through < Pep440Version::parse(build.release())));
}

bool has_windows_cuda(const matrix::WindowsGpuSupport& windows, const FrameworkBuild& build)
{
    return windows.native_gpu && !windows.pypi_cpu_only
        && !(windows.native_gpu_through && *windows.native_gpu_through < Pep440Version::parse(build.line));
}

bool check_host_os(const Context& ctx, Report& report)
{
    if (ctx.query.os == HostOs::macos && ctx.build && !has_macos_cuda(ctx.matrix, *ctx.build)) {
        const auto& macos = *macos_gpu_support(ctx.matrix, ctx.build->framework);
        if (asks_cpu_wheels(ctx.query))
            report.add(Verdict::ok, "framework-macos-cpu",
                "pip's " + ctx.build->package() + " " + ctx.build->release()
                    + " on macOS is its CPU build, with no CUDA: no GPU, driver or CUDA is named, so it runs as asked",
                macos.provenance.cite());
        else
            fail_no_macos_cuda(*ctx.build, macos, report);
        return false;
    }
    if (!runs_windows_driver(ctx.query.os) || !ctx.build)
        return true;
    const FrameworkBuild& build = *ctx.build;
    const auto* known = windows_gpu_support(ctx.matrix, build.framework);
    if (!known)
        return true;
    const matrix::WindowsGpuSupport& windows = *known;
    const std::string framework = build.package();
    const std::string name = framework + " " + build.release();

    if (ctx.query.os == HostOs::windows_wsl2) {
        if (windows.wsl2_experimental.value_or(false) && !build.cpu_only)
            report.add(Verdict::warn, "framework-wsl2-experimental",
                framework + "'s GPU support under WSL 2 is experimental in its own words", windows.provenance.cite());
        return true;
    }
    if (!windows.native_gpu && asks_cpu_wheels(ctx.query)) {
        judge_windows_cpu_wheels(build, windows, "no " + framework + " release publishes CUDA builds for it", report);
        return false;
    }
    if (!windows.native_gpu) {
        report.add(Verdict::fail, "framework-no-windows-gpu",
            name + " has no GPU on native Windows: no " + framework + " release publishes CUDA builds for it",
            windows.provenance.cite());
        report.suggest("run " + framework + " under WSL 2 (--os wsl2), or in dlenv's Linux image");
        return true;
    }
    if (windows.native_gpu_through && *windows.native_gpu_through < Pep440Version::parse(build.line)) {
        const std::string last = windows.native_gpu_through->public_str();
        // a plain tensorflow there is asked for its GPU, which it lost
        if (asks_cpu_builds(ctx.query)) {
            judge_windows_cpu_wheels(
                build, windows, framework + " " + last + " was the last release with GPU there", report);
            return false;
        }
        report.add(Verdict::fail, "framework-no-windows-gpu",
            name + " has no GPU on native Windows: " + framework + " " + last
                + " was the last release with it, and later ones run on the CPU there",
            windows.provenance.cite());
        report.suggest(
            "run " + name + " under WSL 2 (--os wsl2), or pin " + framework + " " + last + " on native Windows");
        return true;
    }
    if (windows.pypi_cpu_only && build.pypi_default && !ctx.query.cuda) {
        const std::string index = "https://download.pytorch.org/whl/" + build.variant;
        const bool plain = asks_cpu_wheels(ctx.query);
        report.add(plain ? Verdict::ok : Verdict::warn, "framework-windows-pypi-cpu",
            "pip's " + name + " from PyPI is the CPU build on native Windows: "
                + (plain ? "no GPU or driver is named, so it runs as asked; for CUDA, the " + build.variant
                         : "judged as the " + build.variant)
                + " build, which installs from " + index,
            windows.provenance.cite());
        report.suggest("on native Windows install " + name + " with --index-url " + index + ", or name its build ("
            + framework + "==" + build.release() + "+" + build.variant + ")");
    }
    return true;
}

} // namespace dlenv::resolve
