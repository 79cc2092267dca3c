#include "core/error.h"
#include "core/file.h"
#include "host/doctor.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

std::vector<host::GpuHealth> fixture(const std::string& name)
{
    return host::parse_nvsmi_xml(read_file(std::string(DLENV_SOURCE_DIR) + "/tests/fixtures/nvidia_smi/" + name));
}

host::HostState with_health(std::vector<host::GpuHealth> gpus)
{
    host::HostState state;
    state.driver = host::DriverFacts { DriverVersion::parse("555.42.06"), {}, "nvidia-smi" };
    state.gpu_health = std::move(gpus);
    return state;
}

std::vector<std::string> lines(const std::vector<Finding>& findings)
{
    std::vector<std::string> out;
    for (const auto& f : findings)
        out.push_back(std::string(to_string(f.verdict)) + " " + f.message);
    return out;
}

} // namespace

TEST_CASE("nvidia-smi -q -x of an L4 on driver 555 reads as a healthy idle GPU", "[host]")
{
    auto gpus = fixture("l4-driver-555.xml");
    REQUIRE(gpus.size() == 1);
    const auto& l4 = gpus[0];
    CHECK(l4.bus_id == "00000000:01:00.0");
    CHECK(l4.name == "NVIDIA L4");
    CHECK(l4.pcie.generation == 4u);
    CHECK(l4.pcie.max_generation == 4u);
    CHECK(l4.pcie.width == 16u);
    CHECK(l4.pcie.max_width == 16u);
    CHECK(l4.idle);
    CHECK(l4.clock_reasons.empty());
    CHECK(l4.temperature_c == 45);
    CHECK(l4.margin_c == 39);
    CHECK_FALSE(l4.slowdown_c);
    CHECK(l4.ecc_mode == "Enabled");
    CHECK(l4.ecc_volatile_uncorrectable == 0u);
    CHECK(l4.ecc_aggregate_uncorrectable == 0u);
    CHECK_FALSE(l4.row_remap_failure);

    auto state = with_health(gpus);
    std::vector<Finding> all;
    for (auto check :
        { host::check_gpu_pcie, host::check_gpu_clocks, host::check_gpu_temperature, host::check_gpu_ecc })
        for (auto& f : check(state))
            all.push_back(f);
    CHECK(lines(all)
        == std::vector<std::string> {
            "ok GPU 0 (NVIDIA L4, 00000000:01:00.0): PCIe gen 4 x16 (max gen 4 x16)",
            "ok GPU 0 (NVIDIA L4, 00000000:01:00.0): no power or thermal limit holds the clocks down",
            "ok GPU 0 (NVIDIA L4, 00000000:01:00.0): 45 C, 39 C below slowdown",
            "ok GPU 0 (NVIDIA L4, 00000000:01:00.0): no uncorrectable ECC errors",
        });
    CHECK(all[0].subject == "GPU 0 (NVIDIA L4, 00000000:01:00.0)");
    CHECK(all[0].threshold == "the link's maximum generation and width");
}

TEST_CASE("the pre-535 layout: a narrow link, a thermal slowdown, heat and uncorrectable errors are caught", "[host]")
{
    auto gpus = fixture("a100-pair-driver-470-faults.xml");
    REQUIRE(gpus.size() == 2);
    CHECK(gpus[0].clock_reasons == std::vector<std::string> { "sw_power_cap", "hw_thermal_slowdown" });
    CHECK(gpus[0].ecc_volatile_uncorrectable == 2u);
    CHECK(gpus[0].ecc_aggregate_uncorrectable == 5u);
    CHECK(gpus[0].slowdown_c == 89);
    CHECK(gpus[1].bus_id == "00000000:0F:00.0");
    CHECK_FALSE(gpus[1].idle);
    CHECK_FALSE(gpus[1].ecc_volatile_uncorrectable);

    auto state = with_health(gpus);
    CHECK(lines(host::check_gpu_pcie(state))
        == std::vector<std::string> {
            "warn GPU 0 (NVIDIA A100-SXM4-80GB, 00000000:07:00.0): PCIe gen 4 x8 (max gen 4 x16): trained to fewer "
            "lanes than it has; reseat the card or move it to a full-width slot",
            "warn GPU 1 (NVIDIA A100-SXM4-80GB, 00000000:0F:00.0): PCIe gen 3 x16 (max gen 4 x16): below its "
            "generation while busy; check the slot, riser and BIOS PCIe setting",
        });
    CHECK(lines(host::check_gpu_clocks(state))
        == std::vector<std::string> {
            "warn GPU 0 (NVIDIA A100-SXM4-80GB, 00000000:07:00.0): clocks held down by sw_power_cap, "
            "hw_thermal_slowdown: check cooling, power cables and `nvidia-smi -q -d PERFORMANCE`",
            "ok GPU 1 (NVIDIA A100-SXM4-80GB, 00000000:0F:00.0): clocks follow settings only "
            "(applications_clocks_setting)",
        });
    CHECK(lines(host::check_gpu_temperature(state))
        == std::vector<std::string> {
            "warn GPU 0 (NVIDIA A100-SXM4-80GB, 00000000:07:00.0): 84 C, 5 C below slowdown: under load it will "
            "slow down; check airflow and the fans",
            "ok GPU 1 (NVIDIA A100-SXM4-80GB, 00000000:0F:00.0): 52 C, 37 C below slowdown",
        });
    auto ecc = host::check_gpu_ecc(state);
    CHECK(lines(ecc)
        == std::vector<std::string> {
            "fail GPU 0 (NVIDIA A100-SXM4-80GB, 00000000:07:00.0): 2 uncorrectable since the driver loaded, 5 over "
            "its life: results on this GPU cannot be trusted; drain it and reset it (`nvidia-smi -r`)",
            "warn GPU 1 (NVIDIA A100-SXM4-80GB, 00000000:0F:00.0): ECC is disabled: memory errors corrupt results "
            "silently; `nvidia-smi -e 1` and a reboot turn it on",
        });
    CHECK(ecc[0].measured == 2.0);
}

TEST_CASE("an idle link below its generation is not a fault, and a GPU without ECC is unknown", "[host]")
{
    host::GpuHealth idle { .bus_id = "00000000:01:00.0",
        .name = "NVIDIA GeForce RTX 4090",
        .pcie = { 1u, 4u, 16u, 16u },
        .idle = true,
        .ecc_mode = "N/A" };
    auto state = with_health({ idle });
    CHECK(lines(host::check_gpu_pcie(state))
        == std::vector<std::string> { "ok GPU 0 (NVIDIA GeForce RTX 4090, 00000000:01:00.0): PCIe gen 1 x16 (max gen "
                                      "4 x16): idle, and links train down at idle; run the doctor under load to see "
                                      "its full speed" });
    CHECK(lines(host::check_gpu_ecc(state))
        == std::vector<std::string> {
            "unknown GPU 0 (NVIDIA GeForce RTX 4090, 00000000:01:00.0): no ECC on this GPU: memory errors go unseen" });
}

TEST_CASE("GPU health that nvidia-smi did not give is one unknown finding per check", "[host]")
{
    host::HostState state;
    auto none = host::check_gpu_pcie(state);
    REQUIRE(none.size() == 1);
    CHECK(none[0].verdict == Verdict::unknown);
    CHECK(none[0].message == "no NVIDIA driver found: GPU health not visible");
    state.driver = host::DriverFacts { DriverVersion::parse("555.42.06"), {}, "nvml" };
    CHECK(host::check_gpu_ecc(state).at(0).message == "not visible: `nvidia-smi -q -x` did not answer");
    CHECK_THROWS_WITH(host::parse_nvsmi_xml("<html></html>"), "nvidia-smi -q -x printed no <nvidia_smi_log>");
}
