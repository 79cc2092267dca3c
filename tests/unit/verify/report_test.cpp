#include "verify/report.h"

#include <catch2/catch.hpp>

using namespace dlenv;

TEST_CASE("a report carries the lock's thresholds as the lock writes them, or {} without a lock", "[verify]")
{
    verify::Report report;
    verify::TierReport tier { "gpu", {}, {}, 0 };
    CHECK(report.to_json().at("thresholds").dump() == "{}");
    CHECK(report.tier_json(tier).at("thresholds").dump() == "{}");

    report.thresholds = lock::Thresholds { 0.8, 0.6 };
    CHECK(report.to_json().at("thresholds").dump() == R"({"bandwidth_min_fraction":0.8,"gemm_min_fraction":0.6})");
    CHECK(
        report.tier_json(tier).at("thresholds").dump() == R"({"bandwidth_min_fraction":0.8,"gemm_min_fraction":0.6})");
}

TEST_CASE("a report's host names each GPU's UUID beside its model, null where the driver gave none", "[verify]")
{
    verify::Report report;
    report.host.node = "gpu-node-07";
    report.host.gpus = { "NVIDIA L4", "NVIDIA L4" };
    report.host.gpu_uuids = { GpuUuid::parse("GPU-c5533cd4-5a60-059e-348d-b6d7466932e4"), std::nullopt };
    verify::TierReport tier { "gpu", {}, {}, 0 };
    const std::string expected = R"({"driver":null,"gpu_uuids":["GPU-c5533cd4-5a60-059e-348d-b6d7466932e4",null],)"
                                 R"("gpus":["NVIDIA L4","NVIDIA L4"],"kernel":"","node":"gpu-node-07"})";
    CHECK(report.to_json().at("host").dump() == expected);
    CHECK(report.tier_json(tier).at("host").dump() == expected);
}
