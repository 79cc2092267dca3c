#pragma once

#include "core/gpu_uuid.h"
#include "core/version.h"

#include <optional>
#include <string>
#include <vector>

namespace dlenv {

// What is known of a machine: the one a lock is made for, or the one a verification ran
// on. Any field may be missing; reports write the driver as it was read (its `text()`).
struct HostFacts {
    std::string kernel; // `uname -r`; empty when not read
    std::optional<DriverVersion> driver; // the NVIDIA driver; nullopt: none found, or none given
    std::vector<std::string> gpus; // models as the driver names them, or X.Y where the model is unknown
    // The UUID of each of `gpus`, in the same order, nullopt where the driver gave none;
    // empty where no UUIDs were read (a lock's host, a report written before they were).
    std::vector<std::optional<GpuUuid>> gpu_uuids;
    std::string node; // `uname -n`, the host name a verification ran on; empty when not read
};

} // namespace dlenv
