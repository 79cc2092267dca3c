#pragma once

#include "core/gpu_uuid.h"
#include "core/version.h"

#include <optional>
#include <string>
#include <vector>

namespace dlenv::host {

struct DetectedGpu {
    std::string name; // as the driver reports it: "NVIDIA A100-SXM4-80GB"
    std::optional<ComputeCapability> compute_capability;
    std::optional<double> memory_gib; // total device memory
    std::optional<GpuUuid> uuid; // nullopt where the driver gives none
};

struct DriverFacts {
    DriverVersion driver;
    std::vector<DetectedGpu> gpus;
    std::string method; // "nvml" or "nvidia-smi"
};

// Asks NVML (libnvidia-ml.so.1 through dlopen) for the driver and GPUs, else runs
// nvidia-smi. Returns nullopt when neither is present: a machine without an NVIDIA driver.
std::optional<DriverFacts> probe_driver();

// Parses the output of `nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total,uuid
// --format=csv,noheader,nounits`. Throws Error(invalid_input) on a line it cannot read, and
// on a uuid that is neither a GPU UUID nor nvidia-smi's "[N/A]".
DriverFacts parse_nvidia_smi(const std::string& output);

} // namespace dlenv::host
