#pragma once

#include <optional>
#include <string>
#include <vector>

namespace dlenv::host {

// One GPU's NVLink links as `nvidia-smi nvlink --status` lists them.
struct NvlinkState {
    unsigned gpu = 0; // the index nvidia-smi gives
    std::string name; // "NVIDIA H100 PCIe"
    unsigned links = 0; // listed
    unsigned active = 0; // with a speed above 0 GB/s; the rest print <inactive> or 0 GB/s
};

// Parses `nvidia-smi nvlink --status`: "GPU N: NAME (UUID: ...)" lines, each followed by
// "Link K: 26.562 GB/s" or "Link K: <inactive>" lines. A GPU without NVLink lists no link.
// Throws Error(invalid_input) on a link line before any GPU line.
std::vector<NvlinkState> parse_nvlink_status(const std::string& output);

// Runs `nvidia-smi nvlink --status`; nullopt when nvidia-smi is absent or fails.
std::optional<std::vector<NvlinkState>> probe_nvlink();

} // namespace dlenv::host
