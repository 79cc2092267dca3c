#pragma once

#include <optional>
#include <string>
#include <vector>

namespace dlenv::host {

// How two GPUs reach each other, from the legend of `nvidia-smi topo -m`.
enum class Link {
    nvlink, // NV#: NVLink with # links
    pcie_switch, // PIX, PXB: through PCIe switches, without the host bridge
    host_bridge, // PHB, NODE: through the CPU's PCIe host bridge(s), one NUMA node
    cross_socket // SYS: across the interconnect between CPU sockets
};

struct GpuPair {
    unsigned first, second; // GPU indices, first < second
    Link link;
    std::string code; // as printed: "NV18", "PXB", "SYS"
};

struct Topology {
    unsigned gpus = 0;
    std::vector<GpuPair> pairs; // every pair once, in index order
};

// Parses the matrix `nvidia-smi topo -m` prints (terminal escapes allowed). Throws
// Error(invalid_input) when it has no GPU rows or a link code it does not know.
Topology parse_topology(const std::string& output);

// Runs `nvidia-smi topo -m`; nullopt when nvidia-smi is absent or fails.
std::optional<Topology> probe_topology();

} // namespace dlenv::host
