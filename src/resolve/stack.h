#pragma once

#include "core/host_facts.h"
#include "core/pep440.h"
#include "core/version.h"
#include "matrix/matrix.h"
#include "resolve/profile.h"
#include "resolve/python_runtime.h"
#include "resolve/report.h"

#include <optional>
#include <string>
#include <vector>

namespace dlenv::resolve {

struct PinnedPackage {
    std::string name;
    Pep440Version version; // with the build's local label: 2.1.2+cu118
};

struct GpuVerdict {
    std::string name;
    ComputeCapability compute_capability;
    Verdict verdict;
    std::vector<std::string> codes; // the findings about this GPU
};

// A framework installed beside the stack's own (the profile's `also`), on its CUDA major.
struct AlsoFramework {
    PinnedPackage framework; // jax 0.4.31
    std::string extra; // "cuda12"; "": none
    std::string variant; // its build's variant, where it has one: "cuda12"
    std::optional<ComputeCapability> min_compute_capability; // JAX's: the oldest GPU its build supports
};

// One consistent environment: everything a lock pins about the CUDA stack.
struct Stack {
    PinnedPackage framework;
    std::string framework_extra; // the PEP 508 extra it is installed with ("and-cuda", "cuda12"); "": none
    std::string variant; // "cu118"
    std::vector<PinnedPackage> companions;
    std::vector<AlsoFramework> also; // in the profile's order
    PythonVersion python;
    CudaVersion cuda; // the full toolkit version the framework was built with
    std::optional<std::string> cudnn;
    std::optional<std::string> nccl;
    DriverVersion toolkit_driver;
    std::optional<DriverVersion> minor_version_driver;
    bool forward_compat = false;
    std::vector<ComputeCapability> arch_list;
    std::vector<ComputeCapability> ptx;
    // What a framework without an arch list on record (JAX) says of its GPU code: the
    // oldest compute capability its build supports; none where the matrix does not say.
    std::optional<ComputeCapability> min_compute_capability;
    std::vector<GpuVerdict> gpus;
    std::vector<std::string> unconfirmed; // facts the stack rests on that are not confirmed
    std::optional<PythonRuntimePin> python_runtime; // when the profile asks for one
};

struct Resolution {
    Report report; // the same findings `check` gives
    std::optional<Stack> stack; // none when the report has an error
};

// Resolves a profile against the matrices and, where given, the host (its driver and
// GPUs). The driver checked is the host's, else the profile's fleet floor. Frameworks the
// profile names under `also` that cannot share the environment with its framework (other
// CUDA majors, cuDNN or NCCL wheels no one version of serves both) are
// Error(invalid_input) naming the profile, both frameworks, the library and both needs.
Resolution resolve_profile(const matrix::Matrix& matrix, const Profile& profile, const HostFacts& host);

} // namespace dlenv::resolve
