#pragma once

#include "core/embedded_file.h"
#include "matrix/facts.h"

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::matrix {

// The compatibility knowledge: every table of profiles/compat/, loaded and validated.
// Queries answer single facts; the rules that combine them live in resolve/.
class Matrix {
public:
    // The matrices compiled into the binary: loaded from profiles/compat/ when dlenv is
    // built (a malformed file fails the build) and read from their image at start-up.
    static const Matrix& embedded();
    // A directory holding the same files (`--matrix DIR`).
    static Matrix load_directory(const std::filesystem::path& dir);
    // Files by name ("cuda.json" -> contents); `origin` prefixes file names in errors.
    static Matrix load(const std::map<std::string, std::string>& files, const std::string& origin);

    // The typed rows as bytes, and back (image.cpp): what the build compiles the built-in
    // matrices into, so that starting dlenv parses no JSON.
    std::string image() const;
    static Matrix from_image(std::string_view image);

    bool operator==(const Matrix&) const = default;

    // sha256 over every file's name and bytes, in name order: the lock records it.
    const std::string& sha256() const { return m_sha256; }

    const std::vector<CudaToolkit>& toolkits() const { return m_toolkits; }
    const std::vector<MinorVersionFloor>& minor_version_floors() const { return m_minor_floors; }
    const ForwardCompatibility& forward_compatibility() const { return m_forward; }
    const std::vector<DriverBranch>& driver_branches() const { return m_branches; }
    const std::vector<DriverReleases>& driver_releases() const { return m_driver_releases; }
    // The Linux releases of driver branch `branch` (535); null when the matrix lists none.
    const DriverReleases* driver_releases(std::uint32_t branch) const;
    // none: the matrix lists no Linux releases
    std::optional<DriverBranchSpan> driver_release_span() const;
    // none: not on record
    const std::optional<WindowsDriverNumbering>& windows_driver_numbering() const { return m_windows_numbering; }
    // The branch Windows driver `driver` belongs to (582.66: 580): the newest with Linux releases
    // on record at or below its number; none where the numbering is not on record, or below
    // every branch.
    std::optional<std::uint32_t> windows_driver_branch(const DriverVersion& driver) const;
    const std::vector<Architecture>& architectures() const { return m_architectures; }
    const std::vector<CudnnRelease>& cudnn_releases() const { return m_cudnn; }
    const std::vector<CudnnLibraries>& cudnn_libraries() const { return m_cudnn_libraries; }
    const std::optional<CudnnGpuFloor>& cudnn_gpu_floor() const { return m_cudnn_gpu_floor; } // none: not on record
    // The libraries of cuDNN `major`; null when the matrix does not list them.
    const CudnnLibraries* cudnn_libraries(std::uint32_t major) const;
    const std::vector<TorchRelease>& torch_releases() const { return m_torch; }
    const std::optional<TorchAarch64>& torch_aarch64() const { return m_torch_aarch64; } // none: not on record
    // none: not on record
    const std::optional<TorchaudioStableAbi>& torchaudio_stable_abi() const { return m_torchaudio_stable_abi; }
    // none: not on record
    const std::optional<TorchCompileGpuMinimum>& torch_compile_gpu_minimum() const
    {
        return m_torch_compile_gpu_minimum;
    }
    // none: not on record
    const std::optional<TorchCapabilityRangeWarning>& torch_capability_range_warning() const
    {
        return m_torch_capability_range_warning;
    }
    const std::vector<TensorflowRelease>& tensorflow_releases() const { return m_tensorflow; }
    const std::vector<JaxRelease>& jax_releases() const { return m_jax; }
    // Where their CUDA builds run on Windows; none: not on record.
    const std::optional<WindowsGpuSupport>& torch_windows() const { return m_torch_windows; }
    const std::optional<WindowsGpuSupport>& tensorflow_windows() const { return m_tensorflow_windows; }
    const std::optional<WindowsGpuSupport>& jax_windows() const { return m_jax_windows; }
    const std::optional<MacosGpuSupport>& torch_macos() const { return m_torch_macos; }
    const std::optional<MacosGpuSupport>& tensorflow_macos() const { return m_tensorflow_macos; }
    // none: not on record
    const std::optional<TensorflowFreeThreaded>& tensorflow_free_threaded() const { return m_tensorflow_free_threaded; }
    // none: not on record
    const std::optional<TensorflowGpuMinimum>& tensorflow_linux_gpu_minimum() const
    {
        return m_tensorflow_linux_gpu_minimum;
    }
    const std::optional<MacosGpuSupport>& jax_macos() const { return m_jax_macos; }
    const std::optional<JaxCpuExtra>& jax_cpu_extra() const { return m_jax_cpu_extra; } // none: not on record
    const std::vector<JaxNativeCode>& jax_native_code() const { return m_jax_native_code; } // empty: none on record
    const std::optional<MinimumJaxlib>& minimum_jaxlib() const { return m_minimum_jaxlib; } // none: not on record
    // The row of a jax release published alone, with the jaxlib it installs; null where jaxlib
    // has a release of its number, or the table is not on record.
    const JaxJaxlibPair* jax_released_alone(const Pep440Version& jax) const;
    // The jaxlib a jax release's extras install: its own number, or for one released alone the
    // jaxlib before it (jax 0.5.2 installs jaxlib 0.5.1).
    Pep440Version jaxlib_installed_with(const Pep440Version& jax) const;
    const std::vector<Gpu>& gpus() const { return m_gpus; }
    const std::vector<NvidiaImageRelease>& nvidia_image_releases() const { return m_nvidia_images; }
    const std::vector<CudaComponents>& cuda_components() const { return m_cuda_components; }
    const std::vector<PythonRuntimeBuild>& python_runtimes() const { return m_python_runtimes; }

    // Toolkit releases that `version` names: 12.2 -> 12.2.0, 12.2.1, 12.2.2; 12.2.2 -> itself.
    std::vector<const CudaToolkit*> toolkit_releases(const CudaVersion& version) const;
    // The oldest release of the X.Y line with a Linux driver: the one whose driver is the
    // floor for applications built with X.Y. Null when the line is unknown.
    const CudaToolkit* first_toolkit(const CudaVersion& version) const;
    // "X.Y" of every known toolkit line, newest first.
    std::vector<std::string> toolkit_lines() const;
    const MinorVersionFloor* minor_version_floor(std::uint32_t cuda_major) const;
    // NVIDIA's images of the newest release of the X.Y line `version` names (12.1 ->
    // 12.1.1); null when the matrix has none of that line.
    const NvidiaImageRelease* nvidia_image_release(const CudaVersion& version) const;
    // The library components of exactly the release `release` (three parts); null when
    // the matrix does not list that release's components.
    const CudaComponents* cuda_components(const CudaVersion& release) const;
    // The python-build-standalone build of the CPython minor `minor` ("3.10"); null when the
    // matrix lists none.
    const PythonRuntimeBuild* python_runtime(const PythonVersion& minor) const;
    const Architecture* architecture(const ComputeCapability& cc) const;
    // Releases whose version agrees with `version` on the parts both have.
    std::vector<const CudnnRelease*> cudnn_releases_matching(const CudnnVersion& version) const;

    // A GPU by name or alias, case-insensitively; null when unknown.
    const Gpu* find_gpu(std::string_view name) const;
    // The variants of a product family ("A100"), case-insensitively; empty when unknown.
    std::vector<const Gpu*> gpu_family(std::string_view family) const;
    std::vector<std::string> gpu_names() const; // names and aliases, for suggestions

private:
    Matrix() = default;

    std::string m_sha256;
    std::vector<CudaToolkit> m_toolkits;
    std::vector<MinorVersionFloor> m_minor_floors;
    ForwardCompatibility m_forward;
    std::vector<DriverBranch> m_branches;
    std::vector<DriverReleases> m_driver_releases;
    std::optional<WindowsDriverNumbering> m_windows_numbering;
    std::vector<Architecture> m_architectures;
    std::vector<CudnnRelease> m_cudnn;
    std::vector<CudnnLibraries> m_cudnn_libraries;
    std::optional<CudnnGpuFloor> m_cudnn_gpu_floor;
    std::vector<TorchRelease> m_torch;
    std::optional<TorchAarch64> m_torch_aarch64;
    std::optional<TorchaudioStableAbi> m_torchaudio_stable_abi;
    std::optional<TorchCapabilityRangeWarning> m_torch_capability_range_warning;
    std::optional<TorchCompileGpuMinimum> m_torch_compile_gpu_minimum;
    std::vector<TensorflowRelease> m_tensorflow;
    std::vector<JaxRelease> m_jax;
    std::optional<WindowsGpuSupport> m_torch_windows;
    std::optional<WindowsGpuSupport> m_tensorflow_windows;
    std::optional<WindowsGpuSupport> m_jax_windows;
    std::optional<MacosGpuSupport> m_torch_macos;
    std::optional<MacosGpuSupport> m_tensorflow_macos;
    std::optional<TensorflowGpuMinimum> m_tensorflow_linux_gpu_minimum;
    std::optional<TensorflowFreeThreaded> m_tensorflow_free_threaded;
    std::optional<MacosGpuSupport> m_jax_macos;
    std::optional<JaxCpuExtra> m_jax_cpu_extra;
    std::vector<JaxNativeCode> m_jax_native_code;
    std::optional<MinimumJaxlib> m_minimum_jaxlib;
    std::optional<JaxAloneReleases> m_jax_alone_releases;
    std::vector<Gpu> m_gpus;
    std::vector<NvidiaImageRelease> m_nvidia_images;
    std::vector<CudaComponents> m_cuda_components;
    std::vector<PythonRuntimeBuild> m_python_runtimes;

    friend class Loader;
    friend struct MatrixFields;
};

// The compiled-in matrix files (generated from profiles/compat/).
const std::vector<EmbeddedFile>& embedded_matrix_files();
// Matrix::load of those files as Matrix::image() wrote it, when dlenv was built.
std::string_view embedded_matrix_image();

// The matrix files of `dir` by name ("cuda.json" -> contents). Error(not_found) when `dir`
// is no directory.
std::map<std::string, std::string> read_matrix_directory(const std::filesystem::path& dir);
// Those of `dir`, or the compiled-in ones when `dir` is empty.
std::map<std::string, std::string> matrix_files(const std::filesystem::path& dir);

} // namespace dlenv::matrix
