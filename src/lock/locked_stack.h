#pragma once

#include "core/json_reader.h"
#include "core/version.h"

#include <optional>
#include <string>
#include <vector>

namespace dlenv::lock {

// The stack a lock pins, as its "stack" section says it, with every field's type checked:
// what the image's labels, its NVIDIA_REQUIRE_CUDA, the doctor's driver floor and
// verify's promises are made from.
struct LockedStack {
    std::string framework; // stack.framework.name: "torch"
    std::string framework_version; // stack.framework.local_version: "2.1.2+cu118"
    CudaVersion cuda;
    std::optional<CudnnVersion> cudnn;
    std::optional<NcclVersion> nccl;
    PythonVersion python;
    DriverVersion toolkit_driver; // stack.driver.toolkit_min
    std::optional<DriverVersion> minor_version_driver; // stack.driver.minor_version_min
    bool forward_compat = false; // stack.driver.forward_compat
    std::vector<ComputeCapability> arch_list;
};

// Reads the "stack" section. Throws Error(invalid_input) naming the file and the field
// ("x.lock.json: stack.cuda: expected a string, got 11.8 (number)").
LockedStack read_locked_stack(const JsonReader& stack);

} // namespace dlenv::lock
