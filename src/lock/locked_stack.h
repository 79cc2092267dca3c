#pragma once

#include "core/version.h"
#include "resolve/report.h"
#include "resolve/stack.h"

#include <optional>
#include <string>
#include <vector>

namespace dlenv::lock {

// A package pinned beside the framework (stack.companions[]).
struct LockedCompanion {
    std::string name; // "torchvision"
    std::string version; // "0.16.2+cu118"
};

// A framework installed beside the stack's own (stack.also[], written only when there is
// one, so locks of one framework keep their bytes), in stack.framework's shape.
struct LockedFramework {
    std::string name; // "jax"
    std::string version; // local_version: "0.4.31"
    std::string public_version; // version
    std::string variant; // "cuda12"; "" where the framework has none
    std::string extra; // "cuda12"; "": none
    std::optional<ComputeCapability> min_compute_capability; // written only where known (JAX): "5.2"
};

// What the resolution said about one GPU the stack is for (stack.gpus[]).
struct LockedGpu {
    std::string name;
    ComputeCapability compute_capability;
    Verdict verdict; // written as resolve::verdict_name: "ok", "warning", "error"
    std::vector<std::string> findings; // the codes of the findings about this GPU
};

// The stack a lock pins, as its "stack" section says it, with every field's type checked:
// what the image's labels, its NVIDIA_REQUIRE_CUDA, the doctor's driver floor and
// verify's promises are made from.
struct LockedStack {
    std::string framework; // stack.framework.name: "torch"
    std::string framework_version; // stack.framework.local_version: "2.1.2+cu118"
    std::string framework_public_version; // stack.framework.version: "2.1.2"
    std::string variant; // stack.framework.variant: "cu118"
    std::string extra; // stack.framework.extra, where it is installed with one: "cuda12", "and-cuda"
    std::vector<LockedCompanion> companions;
    std::vector<LockedFramework> also; // in the profile's order
    CudaVersion cuda;
    std::optional<CudnnVersion> cudnn;
    std::optional<NcclVersion> nccl;
    PythonVersion python;
    DriverVersion toolkit_driver; // stack.driver.toolkit_min
    std::optional<DriverVersion> minor_version_driver; // stack.driver.minor_version_min
    bool forward_compat = false; // stack.driver.forward_compat
    std::vector<ComputeCapability> arch_list;
    std::vector<ComputeCapability> ptx;
    // stack.framework.min_compute_capability: the oldest GPU a framework without an arch
    // list on record (JAX) supports; written only where known
    std::optional<ComputeCapability> min_compute_capability;
    std::vector<LockedGpu> gpus;
    std::vector<std::string> unconfirmed; // facts the stack rests on that are not confirmed
};

// The lock's record of a resolved stack. Throws Error(invalid_input) when the matrix
// gave a cuDNN or NCCL version that is not one.
LockedStack locked_stack_of(const resolve::Stack& stack);

} // namespace dlenv::lock
