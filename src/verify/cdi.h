#pragma once

#include "verify/gpu_injection.h"

#include <nlohmann/json.hpp>

namespace dlenv::verify {

// The container edits of a CDI spec (cdiVersion 0.5 to 0.8) for all its devices: the
// spec-wide containerEdits and those of the device named "all", or of every device
// when none is. Device nodes without major/minor numbers are completed with `probe`.
// Error(invalid_input) naming `where` for a spec that does not follow the schema.
GpuInjection plan_from_cdi_spec(const nlohmann::json& spec, const std::string& where, const DeviceProbe& probe);

// The first spec of kind nvidia.com/gpu in `dirs` (each read in file-name order), JSON
// (*.json) or YAML (*.yaml, what `nvidia-ctk cdi generate` and the toolkit's refresh
// service write to /var/run/cdi/nvidia.yaml).
std::optional<GpuInjection> plan_from_cdi_dirs(
    const std::vector<std::filesystem::path>& dirs, const DeviceProbe& probe);

} // namespace dlenv::verify
