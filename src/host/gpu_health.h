#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::host {

// A GPU's PCIe link now and at most (the lower of what the GPU and its slot can do).
struct PcieLink {
    std::optional<unsigned> generation {};
    std::optional<unsigned> max_generation {};
    std::optional<unsigned> width {}; // lanes
    std::optional<unsigned> max_width {};
};

// What `nvidia-smi -q -x` says of one GPU's health: its link, why its clocks are held
// down, its temperature and its ECC errors. Absent or "N/A" elements stay empty.
struct GpuHealth {
    std::string bus_id {}; // the <gpu id="..."> attribute: "00000000:01:00.0"
    std::string name {}; // product_name
    PcieLink pcie {};
    bool idle = false; // the gpu_idle clock reason is active: links and clocks idle down
    std::vector<std::string> clock_reasons {}; // the other active reasons: "hw_thermal_slowdown", "sw_power_cap"
    std::optional<int> temperature_c {}; // gpu_temp
    std::optional<int> slowdown_c {}; // gpu_temp_slow_threshold (drivers before 555)
    std::optional<int> margin_c {}; // gpu_temp_tlimit (555 and later): degrees left before slowdown
    std::string ecc_mode {}; // current_ecc: "Enabled", "Disabled", "N/A"
    std::optional<std::uint64_t> ecc_volatile_uncorrectable {}; // since the driver loaded
    std::optional<std::uint64_t> ecc_aggregate_uncorrectable {}; // over the GPU's life
    bool row_remap_failure = false; // remapped_row_failure Yes: the memory has run out of spare rows
};

// Parses the XML of `nvidia-smi -q -x` (nvsmi_device_v*.dtd): the clock reasons under
// either spelling (clocks_event_reasons since driver 535, clocks_throttle_reasons before),
// uncorrectable ECC counts of either layout (dram_/sram_uncorrectable, or double_bit's
// total). Throws Error(invalid_input) when it is not an nvidia_smi_log.
std::vector<GpuHealth> parse_nvsmi_xml(const std::string& xml);

// Runs `nvidia-smi -q -x`; nullopt when nvidia-smi is absent or fails.
std::optional<std::vector<GpuHealth>> probe_gpu_health();

} // namespace dlenv::host
