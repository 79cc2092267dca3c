#pragma once

#include "core/pep440.h"
#include "core/version.h"
#include "matrix/matrix.h"
#include "resolve/query.h"

#include <optional>
#include <string>
#include <vector>

namespace dlenv::resolve {

// One binary build of a framework, with what it brings: the CUDA it was built with,
// the cuDNN it bundles or was tested with, the GPU code it carries.
struct FrameworkBuild {
    Framework framework;
    std::string line; // "2.1"
    std::optional<Pep440Version> version {}; // set when the request named a patch release
    std::string variant {}; // "cu118"; empty where a framework has no variants
    // the pip extra it is installed with, as the matrix spells it ("and-cuda", "cuda12"); empty: none
    std::string extra {};
    const matrix::JaxExtraAlias* extra_alias = nullptr; // the other name of `extra` the request wrote
    CudaVersion cuda;
    std::optional<CudnnVersion> cudnn {};
    bool cudnn_bundled = false; // the build loads its own cuDNN, not the system's
    std::optional<std::vector<ComputeCapability>> arch_list {}; // none: not known
    std::optional<std::vector<ComputeCapability>> ptx {}; // none: not known; empty: no PTX
    std::optional<matrix::Provenance> code_provenance {}; // the GPU code's sources, where not `provenance`
    // the host's wheels carry GPU code of their own that is not on record, and `arch_list` is
    // the Linux x86_64 wheels'
    bool host_code_unknown = false;
    PythonRange python {};
    std::vector<PythonVersion> python_experimental {}; // supported experimentally, beyond `python`
    // the free-threaded builds it ships wheels for; not known: not on record
    std::optional<std::vector<PythonVersion>> python_free_threaded {};
    const matrix::TorchRelease* torch = nullptr;
    const matrix::TorchVariant* torch_variant = nullptr;
    const matrix::TensorflowRelease* tensorflow = nullptr;
    const matrix::JaxRelease* jax = nullptr;
    const matrix::JaxBuild* jax_build = nullptr;
    matrix::Provenance provenance {};
    // picked as the release's PyPI default, no label or CUDA having named the build: what
    // `pip install torch==X` installs
    bool pypi_default = false;
    // built from source (NVIDIA's containers, Jetson wheels): its cuDNN, NCCL and GPU code are
    // its builder's, not the release's wheels'
    bool from_source = false;
    bool jaxlib = false; // asked for as jaxlib, whose versions before 0.4 are not jax's
    // the CPU-only build (torch's +cpu, jax[cpu]): the release's Pythons and platforms, no CUDA
    bool cpu_only = false;
    // A JAX build that loads the CUDA installed on the host: its local extra, any extra before
    // 0.4.7, or a CUDA jaxlib named by its label alone, which comes without pip's CUDA wheels.
    bool loads_host_cuda = false;
    // the CUDA asked for is the host's, outside this JAX build that brings its own from pip
    // (jax[cuda12] on a host with CUDA 11.8): the build runs on pip's CUDA, not that one
    bool host_cuda_set_aside = false;

    std::string package() const; // "jaxlib" where asked for so, else the framework's name
    std::string release() const; // "2.1", or the patch release the request named ("2.1.2")
    std::string name() const; // "torch 2.1 cu118", "tensorflow 2.14", "jaxlib 0.1.74 cuda11_cudnn82"
};

struct NamedJaxExtra {
    std::string extra; // as the matrix spells it; `written` where the release has no such extra
    const matrix::JaxExtraAlias* alias = nullptr; // the other name `written` is, if it is one
};

// The build extra of `release` that `written` names, as pip compares extras (PEP 685): one of
// its builds' own, or an alias of one.
NamedJaxExtra jax_extra(const matrix::JaxRelease& release, const std::string& written);

// The release line a request names ("2.1", or "2.1.2" within it). Throws
// Error(invalid_input) naming the closest lines or the line's releases.
template <typename Release>
const Release& find_release_line(const std::vector<Release>& releases, const FrameworkRequest& request);

// The build a framework request runs: torch's variant comes from the local label,
// else from `cuda`, else PyPI's default. None when the line has no such variant.
std::optional<FrameworkBuild> select_framework_build(
    const matrix::Matrix& matrix, const FrameworkRequest& request, const std::optional<CudaVersion>& cuda);

// The CPU-only build a torch or JAX request names (torch==2.1.0+cpu, jax[cpu]==0.4.30), its
// variant "cpu". Throws Error(invalid_input) for jax[cpu] of a release whose setup.py has no
// such extra, or with a CUDA jaxlib's label.
FrameworkBuild select_cpu_build(const matrix::Matrix& matrix, const FrameworkRequest& request);

// A torch build as one platform's wheels carry GPU code (its variant's `windows` or
// `linux_aarch64`), where that is on record.
void use_platform_wheel_code(FrameworkBuild& build, const std::optional<matrix::PlatformGpuCode>& code);

// The pip extras that bring a build's CUDA: JAX's plugin from pip (its default) or on the
// system's CUDA, TensorFlow's and-cuda (2.14 on); torch's wheels carry their own.
std::vector<std::string> cuda_extras(const FrameworkBuild& build);

// Throws Error(invalid_input) when the build is installed with an extra it does not have:
// the message starts with `where` ("team.json: framework.extra"), the hint says to drop
// `written` ("framework.extra", "[and-cuda]").
void require_known_extra(const FrameworkBuild& build, const std::string& where, const std::string& written);

// "jax[cuda12]==0.4.31 is JAX's CUDA 12.1-12.99 build, not one for CUDA 11.8": what a build whose
// host CUDA was set aside says where that CUDA must be its own (a lock's image, a shared --cuda).
std::string pip_cuda_contradiction(
    const FrameworkRequest& request, const FrameworkBuild& build, const CudaVersion& cuda);

// "cu118": the variant tag of a CUDA version.
std::string variant_tag(const CudaVersion& cuda);

} // namespace dlenv::resolve
