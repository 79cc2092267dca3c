#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::host {

// A network interface backed by a device (`/sys/class/net/NAME/device` exists): loopback,
// bridges, veths and other virtual interfaces are left out.
struct NetworkInterface {
    std::string name;
    bool up = false; // operstate "up"
    std::optional<unsigned> speed_mbps; // `speed`; none while the link is down or unknown (-1)
};

// One port of an RDMA device (`/sys/class/infiniband/DEVICE/ports/N`).
struct RdmaPort {
    std::string device; // "mlx5_0"
    std::string port; // "1"
    bool active = false; // state "4: ACTIVE"
    std::string link_layer; // "InfiniBand", or "Ethernet" for RoCE
    std::string rate; // "200 Gb/sec (4X HDR)"
};

struct NetworkFacts {
    std::vector<NetworkInterface> interfaces; // by name
    std::vector<RdmaPort> rdma; // by device, then port
};

// Reads `root`/sys/class/net and `root`/sys/class/infiniband; either may be absent.
NetworkFacts read_network(const std::filesystem::path& root = "/");

} // namespace dlenv::host
