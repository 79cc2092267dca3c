#pragma once

#include "core/version.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::resolve {

enum class Framework { torch, torchvision, torchaudio, tensorflow, jax };
std::string_view to_string(Framework framework);
bool is_companion(Framework framework); // torchvision and torchaudio go along with torch

// The PyPI package a TensorFlow request names: tensorflow; tensorflow-gpu, the GPU build's
// package before 2.1 and the same build under another name after; or tensorflow-cpu, the
// CPU-only build.
enum class TensorflowPackage { tensorflow, gpu, cpu };

// "torch==2.1", "torch==2.1.2+cu118", "tensorflow[and-cuda]==2.16", "jax[cuda12]": a
// framework, a version or release line (none: the newest release, as pip reads the name
// alone), optionally the build's local label, which pins the CUDA variant, and the pip extra
// it is installed with.
struct FrameworkRequest {
    Framework framework;
    std::string version; // "2.1", "2.1.2" or "2.1.2rc1", without the local label; empty: the newest release
    std::string local; // "cu118", or empty
    std::string extra {}; // "and-cuda", "cuda12"; empty: JAX's pip CUDA build, none for TensorFlow
    bool jaxlib = false; // named as jaxlib, whose versions before 0.4 are not jax's
    TensorflowPackage tensorflow_package = TensorflowPackage::tensorflow;
    // "jax-cuda12-plugin" or "jax-cuda12-pjrt" where named so: the CUDA half of jax[cuda12],
    // whose version is its jaxlib's
    std::string jax_plugin {};
    // `extra` is not the request's own but what a JAX package beside it names (jax with
    // jax-cuda12-plugin is jax[cuda12]; a labelled jaxlib beside jax[cuda12_pip] of its version
    // comes with that extra's CUDA wheels): it picks the build, and text() leaves it out
    bool extra_implied = false;
    // `version` was read for a request that named none: the newest release on record (pip may
    // settle on an older one), or the one a JAX package pinned beside it requires
    bool version_read = false;

    // Throws Error(invalid_input) naming the frameworks dlenv knows.
    static FrameworkRequest parse(std::string_view text);
    std::string text() const;
    std::string package() const; // "jaxlib" or the JAX plugin where named so, else the framework's name
    // A release candidate or nightly (2.16.0rc0, 2.6.0.dev20241112), judged by its release's facts.
    bool is_pre_release() const;
    // torch's local label names a wheel variant (cu118, cpu, rocm6.2); any other ("32f93b1",
    // "41361538.nv23.06") marks a build from source, as NVIDIA's containers and Jetson wheels carry.
    bool names_source_build() const;
    // torch's +cpu wheels, jax[cpu] (jaxlib alone) or the tensorflow-cpu package: a build with
    // no CUDA.
    bool names_cpu_build() const;
};

// "3.13" or "3.13t": a CPython version, and whether the t names its free-threaded build.
struct PythonRequest {
    PythonVersion version;
    bool free_threaded = false;

    // Throws Error(invalid_input) as PythonVersion::parse does.
    static PythonRequest parse(std::string_view text);
};

// "535.104.05", or "535" or "R535": a Linux driver release, or its branch alone.
struct DriverRequest {
    std::optional<DriverVersion> release;
    std::optional<std::uint32_t> branch; // set where only the branch was given

    // Throws Error(invalid_input) as DriverVersion::parse does.
    static DriverRequest parse(std::string_view text);
};

// Where the framework runs: Linux (where dlenv's images run), native Windows, or WSL 2,
// whose GPU driver is the Windows host's. Windows drivers carry numbers of their own.
enum class HostOs { linux_host, windows_native, windows_wsl2, macos };
std::string_view to_string(HostOs os); // "linux", "windows", "wsl2", "macos": what --os takes
std::string_view describe(HostOs os); // "Linux", "native Windows", "WSL 2", "macOS"
bool runs_windows_driver(HostOs os);
// Throws Error(invalid_input) naming the systems dlenv knows.
HostOs parse_host_os(std::string_view text);

// An ad hoc question: does this combination work?
struct Query {
    std::vector<FrameworkRequest> frameworks;
    std::optional<CudaVersion> cuda;
    std::optional<CudnnVersion> cudnn;
    std::optional<DriverVersion> driver; // Linux's numbering, or Windows's where `os` runs a Windows driver
    // A driver given as its branch ("535"), read as the branch's newest release on record
    std::optional<std::uint32_t> driver_branch;
    std::vector<std::string> gpus; // models, sm_XY or X.Y
    std::optional<PythonVersion> python;
    bool free_threaded = false; // `python` is CPython's free-threaded build
    bool forward_compat = false;
    HostOs os = HostOs::linux_host;
};

// Whether the query names anything of a GPU stack: a GPU, a driver, CUDA, cuDNN or forward
// compatibility.
bool names_gpu_stack(const Query& query);

// The requests of JAX's packages in a query: jax, jaxlib and its CUDA plugins.
struct JaxRequests {
    const FrameworkRequest* jax = nullptr;
    const FrameworkRequest* jaxlib = nullptr;
    std::vector<const FrameworkRequest*> plugins;
};

JaxRequests jax_requests(const Query& query);

} // namespace dlenv::resolve
