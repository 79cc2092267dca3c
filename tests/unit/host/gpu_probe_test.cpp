#include "core/error.h"
#include "host/gpu_probe.h"

#include <catch2/catch.hpp>

using namespace dlenv;

TEST_CASE("nvidia-smi's CSV gives the driver and each GPU", "[host]")
{
    auto facts = host::parse_nvidia_smi("NVIDIA H200, 570.124.06, 9.0, 143771\n"
                                        "NVIDIA GeForce RTX 4090, 570.124.06, 8.9, 24564\n");
    CHECK(facts.driver.text() == "570.124.06");
    CHECK(facts.method == "nvidia-smi");
    REQUIRE(facts.gpus.size() == 2);
    CHECK(facts.gpus[0].name == "NVIDIA H200");
    CHECK(facts.gpus[0].compute_capability == ComputeCapability(9, 0));
    CHECK(facts.gpus[0].memory_gib == Approx(140.4).epsilon(0.001));
    CHECK(facts.gpus[1].compute_capability == ComputeCapability(8, 9));
}

TEST_CASE("an older nvidia-smi without compute_cap still gives the driver", "[host]")
{
    auto facts = host::parse_nvidia_smi("Tesla T4, 470.57.02, [N/A], 15109\n");
    CHECK(facts.driver.text() == "470.57.02");
    CHECK_FALSE(facts.gpus[0].compute_capability);
}

TEST_CASE("output nvidia-smi would not print is refused", "[host]")
{
    CHECK_THROWS_WITH(host::parse_nvidia_smi("No devices were found\n"),
        "nvidia-smi printed a line dlenv cannot read: 'No devices were found'");
    CHECK_THROWS_WITH(host::parse_nvidia_smi(""), "nvidia-smi listed no GPU");
}

// The L4 of tests/fixtures/nvidia_smi/l4-driver-555.xml (product_name, driver_version,
// fb_memory_usage total, uuid) as `--query-gpu=name,driver_version,compute_cap,memory.total,uuid
// --format=csv,noheader,nounits` prints it: the uuid field is "the globally unique immutable
// alphanumeric identifier of the GPU" (nvidia-smi(1), docs.nvidia.com/deploy/nvidia-smi).
TEST_CASE("nvidia-smi's uuid field gives each GPU's UUID, and [N/A] or no field none", "[host]")
{
    auto facts = host::parse_nvidia_smi("NVIDIA L4, 555.42.06, 8.9, 23034, GPU-c5533cd4-5a60-059e-348d-b6d7466932e4\n"
                                        "NVIDIA L4, 555.42.06, 8.9, 23034, [N/A]\n");
    REQUIRE(facts.gpus.size() == 2);
    REQUIRE(facts.gpus[0].uuid);
    CHECK(facts.gpus[0].uuid->text() == "GPU-c5533cd4-5a60-059e-348d-b6d7466932e4");
    CHECK(facts.gpus[0].memory_gib == Approx(22.49).epsilon(0.001));
    CHECK_FALSE(facts.gpus[1].uuid);
    CHECK_FALSE(host::parse_nvidia_smi("Tesla T4, 470.57.02, 7.5, 15109\n").gpus[0].uuid);
}

TEST_CASE("a uuid nvidia-smi would not print is refused, naming the line", "[host]")
{
    try {
        host::parse_nvidia_smi("NVIDIA L4, 555.42.06, 8.9, 23034, GPU-c5533cd4-5a60-059e\n");
        FAIL("parsed");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(e.message()
            == "nvidia-smi printed a line dlenv cannot read: 'NVIDIA L4, 555.42.06, 8.9, 23034, "
               "GPU-c5533cd4-5a60-059e': 'GPU-c5533cd4-5a60-059e' is not a GPU UUID");
    }
}
