#include "core/error.h"
#include "core/file.h"
#include "host/doctor.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

std::string fixture(const std::string& name)
{
    return read_file(std::string(DLENV_SOURCE_DIR) + "/tests/fixtures/nvidia_smi/" + name);
}

host::HostState with_nvlink(std::vector<host::NvlinkState> gpus)
{
    host::HostState state;
    state.driver = host::DriverFacts { DriverVersion::parse("550.54.15"), {}, "nvidia-smi" };
    state.nvlink = std::move(gpus);
    return state;
}

} // namespace

TEST_CASE("nvidia-smi nvlink --status of two bridged H100 PCIe: 12 of 18 links active on each", "[host]")
{
    auto gpus = host::parse_nvlink_status(fixture("nvlink-status-h100-pcie-pair.txt"));
    REQUIRE(gpus.size() == 2);
    CHECK(gpus[1].gpu == 1);
    CHECK(gpus[1].name == "NVIDIA H100 PCIe");
    CHECK(gpus[0].links == 18);
    CHECK(gpus[0].active == 12);
    auto f = host::check_nvlink(with_nvlink(gpus));
    CHECK(f.verdict == Verdict::ok);
    CHECK(f.message == "GPU 0 12 of 18 active, GPU 1 12 of 18 active");
    CHECK(f.measured == 24.0);
}

TEST_CASE("a GPU with fewer active links than its twin is a warning", "[host]")
{
    auto gpus = host::parse_nvlink_status(fixture("nvlink-status-h100-pcie-pair-loose-bridge.txt"));
    CHECK(gpus[1].active == 8);
    auto f = host::check_nvlink(with_nvlink(gpus));
    CHECK(f.verdict == Verdict::warn);
    CHECK(f.message
        == "GPU 1 has 8 where another NVIDIA H100 PCIe has 12: a bridge or cable is loose or a link is down; "
           "`nvidia-smi nvlink -e` shows each link's errors");
    CHECK(f.value == "GPU 0 12 of 18 active, GPU 1 8 of 18 active");
}

TEST_CASE("GPUs without NVLink, no driver, and output that is not nvlink's", "[host]")
{
    auto none = host::check_nvlink(with_nvlink(host::parse_nvlink_status("GPU 0: NVIDIA L4 (UUID: GPU-c5533cd4)\n")));
    CHECK(none.verdict == Verdict::ok);
    CHECK(none.message == "no NVLink: the GPUs reach each other over PCIe");
    CHECK(host::check_nvlink(host::HostState {}).message == "no NVIDIA driver found: NVLink not visible");
    CHECK_THROWS_WITH(host::parse_nvlink_status("\t Link 0: 26.562 GB/s\n"),
        "nvidia-smi nvlink --status printed a link before any GPU: '\t Link 0: 26.562 GB/s'");
}
