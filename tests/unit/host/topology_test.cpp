#include "core/error.h"
#include "host/topology.h"

#include <catch2/catch.hpp>

using namespace dlenv;

TEST_CASE("nvidia-smi topo -m of an NVLink box gives every pair once", "[host]")
{
    auto topology = host::parse_topology(
        "\x1b[4mGPU0\tGPU1\tGPU2\tGPU3\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\x1b[0m\n"
        "GPU0\t X \tNV18\tNV18\tNV18\tPXB\t0-55\t0\t\tN/A\n"
        "GPU1\tNV18\t X \tNV18\tNV18\tSYS\t0-55\t0\t\tN/A\n"
        "GPU2\tNV18\tNV18\t X \tNV18\tSYS\t56-111\t1\t\tN/A\n"
        "GPU3\tNV18\tNV18\tNV18\t X \tSYS\t56-111\t1\t\tN/A\n"
        "NIC0\tPXB\tSYS\tSYS\tSYS\t X \n\n"
        "Legend:\n\n  X    = Self\n  SYS  = Connection traversing PCIe as well as the SMP interconnect\n"
        "  NV#  = Connection traversing a bonded set of # NVLinks\n");
    CHECK(topology.gpus == 4);
    REQUIRE(topology.pairs.size() == 6);
    for (const auto& pair : topology.pairs) {
        CHECK(pair.link == host::Link::nvlink);
        CHECK(pair.code == "NV18");
    }
    CHECK(topology.pairs[5].first == 2);
    CHECK(topology.pairs[5].second == 3);
}

TEST_CASE("PCIe links are told apart: switch, host bridge, across sockets", "[host]")
{
    auto topology = host::parse_topology("\tGPU0\tGPU1\tGPU2\tCPU Affinity\n"
                                         "GPU0\t X \tPIX\tSYS\t0-15\n"
                                         "GPU1\tPIX\t X \tNODE\t0-15\n"
                                         "GPU2\tSYS\tNODE\t X \t16-31\n");
    REQUIRE(topology.pairs.size() == 3);
    CHECK(topology.pairs[0].link == host::Link::pcie_switch);
    CHECK(topology.pairs[1].link == host::Link::cross_socket);
    CHECK(topology.pairs[2].link == host::Link::host_bridge);
}

TEST_CASE("a topology dlenv cannot read is refused with the line", "[host]")
{
    CHECK_THROWS_WITH(host::parse_topology("\tGPU0\tGPU1\nGPU0\t X \tXYZ\nGPU1\tXYZ\t X \n"),
        "nvidia-smi topo -m printed a link dlenv does not know: 'XYZ' in 'GPU0\t X \tXYZ'");
    CHECK_THROWS_WITH(host::parse_topology("No devices were found\n"), "nvidia-smi topo -m printed no GPU rows");
}
