#pragma once

#include "core/version.h"
#include "host/gpu_health.h"
#include "host/gpu_probe.h"
#include "host/network_facts.h"
#include "host/nvlink.h"
#include "host/read_speed.h"
#include "host/report.h"
#include "host/system_facts.h"
#include "host/topology.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::host {

// The driver floor a lock sets (its stack.driver), given by the caller so that host/
// needs no lock/ or matrix/.
struct DriverFloor {
    std::string lock; // the lock's file, for messages
    DriverVersion toolkit; // toolkit_min
    std::optional<DriverVersion> minor_version; // minor_version_min
    bool forward_compat = false; // the lock relies on cuda-compat
};

// What the matrix knows of a GPU model.
struct GpuSpec {
    std::string name;
    ComputeCapability compute_capability;
    std::string architecture; // "Hopper"
    std::optional<double> memory_gb;
    std::string memory_type;
    std::optional<double> bandwidth_gb_s;
};
// Finds a GPU model by the name the driver reports; nullopt when unknown.
using GpuLookup = std::function<std::optional<GpuSpec>(const std::string& name)>;

// Everything the probes found; tests build it from fixtures.
struct HostState {
    std::optional<DriverFacts> driver; // none: no NVIDIA driver answered
    CpuFacts cpu;
    MemoryFacts memory;
    std::optional<Topology> topology; // none: `nvidia-smi topo -m` not visible, or see topology_error
    std::string topology_error; // why its output could not be read
    std::optional<std::vector<GpuHealth>> gpu_health; // none: `nvidia-smi -q -x` not visible, or see gpu_health_error
    std::string gpu_health_error;
    std::optional<std::vector<NvlinkState>> nvlink; // none: `nvidia-smi nvlink --status` not visible
    std::string nvlink_error;
    std::optional<unsigned> swappiness; // none: /proc/sys/vm/swappiness not there
    NetworkFacts network;
    std::filesystem::path data_dir;
    std::optional<ReadMeasurement> read; // none: see read_error
    std::string read_error;
};

struct ProbeOptions {
    std::filesystem::path root = "/"; // where proc/ and sys/ are read from
    std::filesystem::path data_dir = ".";
    std::uint64_t read_bytes = 256u << 20;
};

// Runs the live probes: driver and GPUs, topology, NVLink, each GPU's health, CPU cores, memory,
// swappiness, network, read speed. A read
// speed that cannot be measured for lack of permission or space is recorded in
// `read_error`; a data directory that does not exist throws Error(not_found).
HostState probe_host(const ProbeOptions& options);

// The doctor's findings, in a fixed order: driver, driver_lock (with a floor), one gpu
// finding per model, cpu_cores_per_gpu, ram_vs_gpu_memory, swap, swappiness,
// data_read_speed, gpu_topology, nvlink, then per GPU (one unknown finding each when GPU health is
// not visible) gpu_pcie_link, gpu_clock_reasons, gpu_temperature, gpu_ecc, and last
// network_speed and rdma.
std::vector<Finding> diagnose(const HostState& host, const std::optional<DriverFloor>& floor, const GpuLookup& lookup);

// The single checks `diagnose` runs, for tests.
Finding check_driver(const std::optional<DriverFacts>& driver);
Finding check_driver_floor(const std::optional<DriverFacts>& driver, const DriverFloor& floor);
std::vector<Finding> check_gpu_models(const std::optional<DriverFacts>& driver, const GpuLookup& lookup);
Finding check_cpu_cores(const CpuFacts& cpu, const std::optional<DriverFacts>& driver);
Finding check_memory(const MemoryFacts& memory, const std::optional<DriverFacts>& driver, const GpuLookup& lookup);
Finding check_swap(const MemoryFacts& memory);
Finding check_read_speed(const HostState& host);
Finding check_topology(const HostState& host);
Finding check_swappiness(const std::optional<unsigned>& swappiness, const MemoryFacts& memory);
Finding check_nvlink(const HostState& host);
std::vector<Finding> check_gpu_pcie(const HostState& host);
std::vector<Finding> check_gpu_clocks(const HostState& host);
std::vector<Finding> check_gpu_temperature(const HostState& host);
std::vector<Finding> check_gpu_ecc(const HostState& host);
Finding check_network(const NetworkFacts& network);
Finding check_rdma(const NetworkFacts& network);

} // namespace dlenv::host
