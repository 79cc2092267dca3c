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
