#pragma once

// The rules `check` applies, one family per file. Each reads the context and adds
// findings (and, where a fix is obvious, suggestions) to the report.

#include "matrix/matrix.h"
#include "resolve/framework_build.h"
#include "resolve/query.h"
#include "resolve/report.h"
#include "resolve/targets.h"

#include <optional>
#include <vector>

namespace dlenv::resolve {

struct Context {
    const matrix::Matrix& matrix;
    const Query& query;
    std::vector<GpuTarget> gpus;
    std::optional<FrameworkBuild> build; // the framework build under test, if any
    std::optional<CudaVersion> cuda; // the CUDA the application was built with

    // Whether the query names GPUs and every one is a Jetson module: their driver is the one
    // JetPack installs, which nvidia-smi numbers apart from the desktop releases.
    bool jetson_only() const; // rules_jetson.cpp
    // The query's driver where the desktop releases number it: none on Jetson modules alone.
    std::optional<DriverVersion> desktop_driver() const { return jetson_only() ? std::nullopt : query.driver; }
    // The desktop driver where its number is Linux's: floors the matrix keeps in Linux numbers
    // only (cuDNN's, an architecture's first release) judge no Windows driver.
    std::optional<DriverVersion> linux_driver() const
    {
        return runs_windows_driver(query.os) ? std::nullopt : desktop_driver();
    }
    // The series the desktop driver belongs to: a Linux number names it (580.95.05), NVIDIA's
    // Windows numbering places a Windows one (582.66: 580). None without one, or for a Windows
    // number the numbering does not place.
    std::optional<std::uint32_t> driver_series() const
    {
        const auto driver = desktop_driver();
        if (!driver)
            return std::nullopt;
        return runs_windows_driver(query.os) ? matrix.windows_driver_branch(*driver) : std::optional(driver->major());
    }
};

void check_driver(const Context& ctx, Report& report); // rules_driver.cpp
// The image's NVIDIA_REQUIRE_CUDA against the query's driver and the GPUs' brands, once the
// driver rules said whether the driver runs the line (`driver_runs`); for a query with a
// driver and a CUDA line the matrix has a toolkit release of.
void check_image_gate(const Context& ctx, bool driver_runs, Report& report); // rules_image_gate.cpp
void check_gpus(const Context& ctx, Report& report); // rules_gpu.cpp
void check_cudnn(const Context& ctx, Report& report); // rules_cudnn.cpp
// A Jetson module's CUDA against its newest JetPack, and the framework build against the
// wheels that carry code for it. False when the build's wheels carry none, so its own GPU
// code is beside the point.
bool check_jetson(const Context& ctx, const GpuTarget& gpu, const matrix::JetsonSoftware& jetson,
    Report& report); // rules_jetson.cpp
// A driver on Jetson modules alone is the one their JetPack installs (Jetson Linux's, which
// nvidia-smi numbers 540.4.0 under JetPack 6 and 580.00 on Thor under JetPack 7): their CUDA is
// JetPack's, so no desktop driver rule judges it (`Context::desktop_driver` is none). True when
// it is, having said so.
bool judge_jetpack_driver(const Context& ctx, Report& report); // rules_jetson.cpp
// Whether PyTorch's aarch64 wheels built for `cuda` run on the Jetson, under the JetPack that
// moved it to NVIDIA's server-Arm CUDA.
bool runs_upstream_wheels(const matrix::JetsonSoftware& jetson, const CudaVersion& cuda); // rules_jetson.cpp
// The start-up warning of a GPU above the wheel's newest architecture that the torch build's
// release prints (2.9 and 2.10); null where it prints none.
const matrix::TorchCapabilityRangeWarning* torch_capability_range_warning(
    const matrix::Matrix& matrix, const FrameworkBuild& build); // rules_gpu.cpp
// The oldest GPU the torch build's torch.compile compiles for; null before torch.compile, or
// where not on record.
const matrix::TorchCompileGpuMinimum* torch_compile_gpu_minimum(
    const matrix::Matrix& matrix, const FrameworkBuild& build); // rules_gpu.cpp
// The oldest GPU the TensorFlow build's Linux wheels run on (on Linux or under WSL 2), where its
// GPU code is not on record; null elsewhere, for torch and JAX, and from the first line whose
// code is.
const matrix::TensorflowGpuMinimum* tensorflow_gpu_minimum(
    const matrix::Matrix& matrix, const FrameworkBuild& build, HostOs os); // rules_gpu.cpp
// Whether torch's wheels bring Triton, torch.compile's default backend, on `os`: on Linux
// alone, so not on native Windows.
bool brings_triton(HostOs os); // rules_gpu.cpp
// A torch build on a GPU whose host is always Linux aarch64 (GH200, GB200): whether PyTorch
// publishes a CUDA build for aarch64 of its release, and whether pip's wheel is one.
void check_aarch64_host(const Context& ctx, const GpuTarget& gpu, Report& report); // rules_aarch64.cpp
void check_framework(const Context& ctx, Report& report); // rules_framework.cpp
// Whether a torchaudio release is built on PyTorch's stable ABI (from 2.11), so it runs with
// the torch of its own major.minor and every later one, where older releases pair with one.
bool on_torchaudio_stable_abi(const matrix::Matrix& matrix, const Pep440Version& torchaudio); // rules_framework.cpp
// Frameworks installed together: whether their cuDNN and NCCL needs can share one wheel
// each, and whether they run on one CUDA major.
void check_coexistence(const std::vector<FrameworkBuild>& builds, Report& report); // rules_coexist.cpp

// Where the framework's CUDA builds run on the query's operating system: none of
// TensorFlow's after 2.10, nor any of JAX's, on native Windows; on macOS none since CUDA left
// it. False on macOS where the build has no CUDA at all, and on native Windows where the query
// asks for CPU wheels alone, so the GPU, driver and cuDNN rules have nothing to judge.
bool check_host_os(const Context& ctx, Report& report); // rules_host_os.cpp
// Where a framework's CUDA builds run on Windows; null: no limit on record (torch publishes
// CUDA wheels for Windows).
const matrix::WindowsGpuSupport* windows_gpu_support(const matrix::Matrix& matrix, Framework framework);
// Whether a framework's macOS builds carry CUDA; null: not on record.
const matrix::MacosGpuSupport* macos_gpu_support(const matrix::Matrix& matrix, Framework framework);
// Whether the build's macOS wheels carry CUDA: TensorFlow's through 1.1; true where not on record.
bool has_macos_cuda(const matrix::Matrix& matrix, const FrameworkBuild& build);
// Whether pip's wheel of the build carries CUDA on native Windows: not PyPI's torch (CPU
// there), nor TensorFlow's after 2.10, nor JAX's.
bool has_windows_cuda(const matrix::WindowsGpuSupport& windows, const FrameworkBuild& build);

// A toolkit's driver floor, and minor-version compatibility's, in the numbers of the host's
// driver: Linux's, or Windows's (native Windows and WSL 2). None where NVIDIA lists none.
std::optional<DriverVersion> toolkit_driver(const matrix::CudaToolkit& toolkit, HostOs os);
std::optional<DriverVersion> minor_version_driver(const matrix::MinorVersionFloor& floor, HostOs os);

// "driver >= 530.30.02, or >= 525.60.13 under minor-version compatibility", in the numbers
// of `os`'s driver
std::string driver_requirement(const matrix::Matrix& matrix, const CudaVersion& cuda, HostOs os);

} // namespace dlenv::resolve
