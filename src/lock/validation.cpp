#include "lock/validation.h"

#include "lock/section_json.h"

namespace dlenv::lock {

Validation read_validation(const JsonReader& validation)
{
    validation.allow_only({ "tiers", "thresholds" });
    JsonReader thresholds = validation.at("thresholds");
    thresholds.allow_only({ "bandwidth_min_fraction", "gemm_min_fraction" });
    return { validation.at("tiers").strings(),
        { thresholds.at("bandwidth_min_fraction").number(), thresholds.at("gemm_min_fraction").number() } };
}

nlohmann::json to_json(const Thresholds& thresholds)
{
    return { { "bandwidth_min_fraction", thresholds.bandwidth_min_fraction },
        { "gemm_min_fraction", thresholds.gemm_min_fraction } };
}

nlohmann::json to_json(const Validation& validation)
{
    return { { "tiers", validation.tiers }, { "thresholds", to_json(validation.thresholds) } };
}

} // namespace dlenv::lock
