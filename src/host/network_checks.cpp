// The doctor's checks of the network that joins this machine to the others of a job.
#include "host/baselines.h"
#include "host/doctor.h"

#include <algorithm>

namespace dlenv::host {

Finding check_network(const NetworkFacts& network)
{
    Finding f { .code = "network_speed",
        .why = "training across nodes all-reduces gradients over the network every step, and loading data sets "
               "or checkpoints from shared storage crosses it too; below 10 Gb/s both stall the GPUs",
        .threshold = ">= 10 Gb/s on an interface that is up",
        .unit = "Gb/s" };
    std::optional<unsigned> best;
    std::string best_name;
    for (const auto& i : network.interfaces) {
        f.value += (f.value.empty() ? "" : ", ") + i.name + " "
            + (!i.up               ? std::string("down")
                    : i.speed_mbps ? number_text(*i.speed_mbps / 1000.0) + " Gb/s"
                                   : "up, speed not reported");
        if (i.up && i.speed_mbps && (!best || *i.speed_mbps > *best)) {
            best = i.speed_mbps;
            best_name = i.name;
        }
    }
    if (network.interfaces.empty()) {
        f.message = "no network interface with a device under /sys/class/net";
        return f;
    }
    if (!best) {
        // A virtual NIC reports no speed; that is not a slow link.
        bool any_up = std::any_of(
            network.interfaces.begin(), network.interfaces.end(), [](const NetworkInterface& i) { return i.up; });
        f.verdict = any_up ? Verdict::unknown : Verdict::warn;
        f.message = (any_up ? "no interface reports its speed (" : "no interface is up (") + f.value + ")";
        return f;
    }
    double gbit = *best / 1000.0;
    f.measured = gbit;
    f.verdict = gbit >= k_network_gbit_s ? Verdict::ok : Verdict::warn;
    f.message = best_name + " at " + number_text(gbit) + " Gb/s"
        + (f.verdict == Verdict::ok ? ", at least 10 Gb/s"
                                    : ", below 10 Gb/s: enough for one node, too slow to train across nodes");
    return f;
}

Finding check_rdma(const NetworkFacts& network)
{
    Finding f { .code = "rdma",
        .why = "NCCL across nodes moves gradients GPU to GPU over RDMA (InfiniBand, or RoCE on Ethernet); over "
               "plain TCP it copies through the CPU and reaches a fraction of the link's speed",
        .threshold = "an active RDMA port, for training across nodes" };
    std::vector<std::string> active;
    for (const auto& p : network.rdma)
        if (p.active)
            active.push_back(p.device + " port " + p.port + " " + (p.link_layer == "Ethernet" ? "RoCE" : p.link_layer)
                + (p.rate.empty() ? "" : " " + p.rate));
    if (network.rdma.empty()) {
        f.message = "no RDMA device under /sys/class/infiniband: fine on one node; training across nodes needs "
                    "InfiniBand or RoCE";
        return f;
    }
    for (const auto& a : active)
        f.value += (f.value.empty() ? "" : ", ") + a;
    if (active.empty()) {
        f.verdict = Verdict::warn;
        f.value = std::to_string(network.rdma.size()) + " RDMA ports, none active";
        f.message = f.value + ": check the cable and the subnet manager (`ibstat`)";
        return f;
    }
    f.verdict = Verdict::ok;
    f.message = f.value;
    return f;
}

} // namespace dlenv::host
