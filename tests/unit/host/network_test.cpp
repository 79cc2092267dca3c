#include "core/file.h"
#include "host/doctor.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace dlenv;

namespace {

// An interface as sysfs shows it: its attributes, and a `device` link to its PCI function
// when it has hardware behind it.
void interface(
    const Scratch& root, const std::string& name, const std::string& operstate, const std::string& speed, bool device)
{
    auto dir = root / ("sys/class/net/" + name);
    write_file_atomic(dir / "operstate", operstate + "\n");
    if (!speed.empty())
        write_file_atomic(dir / "speed", speed + "\n");
    if (device) {
        auto pci = root / ("sys/devices/pci0000:00/0000:00:03." + name);
        std::filesystem::create_directories(pci);
        std::filesystem::create_directory_symlink(pci, dir / "device");
    }
}

void rdma_port(const Scratch& root, const std::string& device, const std::string& state, const std::string& layer,
    const std::string& rate)
{
    auto port = root / ("sys/class/infiniband/" + device + "/ports/1");
    write_file_atomic(port / "state", state + "\n");
    write_file_atomic(port / "link_layer", layer + "\n");
    write_file_atomic(port / "rate", rate + "\n");
}

} // namespace

TEST_CASE("network interfaces with a device are read from /sys/class/net, loopback and veths are not", "[host]")
{
    Scratch root;
    interface(root, "lo", "unknown", "", false);
    interface(root, "veth1a2b", "up", "10000", false);
    interface(root, "eno1", "up", "1000", true);
    interface(root, "ens1f0", "up", "100000", true);
    interface(root, "ens1f1", "down", "-1", true);
    auto net = host::read_network(root.dir());
    REQUIRE(net.interfaces.size() == 3);
    CHECK(net.interfaces[0].name == "eno1");
    CHECK(net.interfaces[1].speed_mbps == 100000u);
    CHECK_FALSE(net.interfaces[2].up);
    CHECK_FALSE(net.interfaces[2].speed_mbps);

    auto f = host::check_network(net);
    CHECK(f.verdict == Verdict::ok);
    CHECK(f.message == "ens1f0 at 100 Gb/s, at least 10 Gb/s");
    CHECK(f.value == "eno1 1 Gb/s, ens1f0 100 Gb/s, ens1f1 down");
    CHECK(f.measured == 100.0);
    CHECK(f.threshold == ">= 10 Gb/s on an interface that is up");
}

TEST_CASE("a 1 Gb/s box is a warning, no interface at all is unknown", "[host]")
{
    Scratch root;
    interface(root, "eno1", "up", "1000", true);
    auto f = host::check_network(host::read_network(root.dir()));
    CHECK(f.verdict == Verdict::warn);
    CHECK(f.message == "eno1 at 1 Gb/s, below 10 Gb/s: enough for one node, too slow to train across nodes");
    Scratch empty;
    CHECK(host::check_network(host::read_network(empty.dir())).verdict == Verdict::unknown);
    Scratch virtio;
    interface(virtio, "eth0", "up", "-1", true);
    auto v = host::check_network(host::read_network(virtio.dir()));
    CHECK(v.verdict == Verdict::unknown);
    CHECK(v.message == "no interface reports its speed (eth0 up, speed not reported)");
    Scratch down;
    interface(down, "eth0", "down", "", true);
    auto d = host::check_network(host::read_network(down.dir()));
    CHECK(d.verdict == Verdict::warn);
    CHECK(d.message == "no interface is up (eth0 down)");
}

TEST_CASE("RDMA ports come from /sys/class/infiniband, RoCE named as such", "[host]")
{
    Scratch root;
    rdma_port(root, "mlx5_0", "4: ACTIVE", "InfiniBand", "200 Gb/sec (4X HDR)");
    rdma_port(root, "mlx5_1", "4: ACTIVE", "Ethernet", "100 Gb/sec (2X EDR)");
    rdma_port(root, "mlx5_2", "1: DOWN", "InfiniBand", "10 Gb/sec (4X SDR)");
    auto net = host::read_network(root.dir());
    REQUIRE(net.rdma.size() == 3);
    CHECK(net.rdma[2].device == "mlx5_2");
    CHECK_FALSE(net.rdma[2].active);
    auto f = host::check_rdma(net);
    CHECK(f.verdict == Verdict::ok);
    CHECK(f.message == "mlx5_0 port 1 InfiniBand 200 Gb/sec (4X HDR), mlx5_1 port 1 RoCE 100 Gb/sec (2X EDR)");

    Scratch down;
    rdma_port(down, "mlx5_0", "1: DOWN", "InfiniBand", "10 Gb/sec (4X SDR)");
    auto d = host::check_rdma(host::read_network(down.dir()));
    CHECK(d.verdict == Verdict::warn);
    CHECK(d.message == "1 RDMA ports, none active: check the cable and the subnet manager (`ibstat`)");

    Scratch none;
    auto n = host::check_rdma(host::read_network(none.dir()));
    CHECK(n.verdict == Verdict::unknown);
    CHECK(n.message
        == "no RDMA device under /sys/class/infiniband: fine on one node; training across nodes needs InfiniBand or "
           "RoCE");
}

TEST_CASE("vm.swappiness is read under a root path and judged with the swap it would act on", "[host]")
{
    Scratch root;
    write_file_atomic(root / "proc/sys/vm/swappiness", "60\n");
    auto swappiness = host::read_swappiness(root.dir());
    CHECK(swappiness == 60u);
    auto on = host::check_swappiness(swappiness, { 64ull << 20, 8ull << 20 });
    CHECK(on.verdict == Verdict::warn);
    CHECK(on.message
        == "vm.swappiness = 60 with swap on: a job's memory can be paged out under page-cache pressure; `sysctl "
           "vm.swappiness=0` (and vm.swappiness = 0 in /etc/sysctl.d/) stops it");
    CHECK(host::check_swappiness(swappiness, { 64ull << 20, 0 }).message
        == "vm.swappiness = 60, and no swap for it to act on");
    CHECK(host::check_swappiness(0u, { 64ull << 20, 8ull << 20 }).verdict == Verdict::ok);
    Scratch empty;
    CHECK_FALSE(host::read_swappiness(empty.dir()));
    CHECK(host::check_swappiness(std::nullopt, {}).verdict == Verdict::unknown);
}
