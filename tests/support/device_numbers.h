#pragma once

#include "verify/container_spec.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace dlenv::test {

// A device probe for fixture /dev trees of plain files: the numbers the NVIDIA driver
// gives its nodes (nvidiaN 195:N, nvidiactl 195:255, nvidia-uvm 510:0, nvidia-uvm-tools
// 510:1); nullopt where the file does not exist.
inline std::optional<verify::DeviceNode> nvidia_device_numbers(const std::string& host_path)
{
    if (!std::filesystem::exists(host_path))
        return std::nullopt;
    std::string name = std::filesystem::path(host_path).filename().string();
    std::uint32_t minor = name == "nvidiactl" ? 255u
        : name == "nvidia-uvm"                ? 0u
        : name.starts_with("nvidia-uvm")      ? 1u
                                              : static_cast<std::uint32_t>(std::stoul(name.substr(6)));
    std::uint32_t major = name.starts_with("nvidia-uvm") ? 510 : 195;
    return verify::DeviceNode { host_path, host_path, 'c', major, minor, 0666 };
}

} // namespace dlenv::test
