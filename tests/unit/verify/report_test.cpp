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
