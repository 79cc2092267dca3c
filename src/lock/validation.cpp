#include "lock/validation.h"

#include "lock/section_json.h"

namespace dlenv::lock {

Validation read_validation(const JsonReader& validation)
{
    validation.allow_only({ "tiers", "thresholds", "acceptance" });
    JsonReader thresholds = validation.at("thresholds");
    thresholds.allow_only({ "bandwidth_min_fraction", "gemm_min_fraction" });
    std::optional<resolve::Acceptance> acceptance;
    if (auto field = validation.find("acceptance"))
        acceptance = resolve::read_acceptance(*field);
    return { validation.at("tiers").strings(),
        { thresholds.at("bandwidth_min_fraction").number(), thresholds.at("gemm_min_fraction").number() },
        std::move(acceptance) };
}

nlohmann::json to_json(const Thresholds& thresholds)
{
    return { { "bandwidth_min_fraction", thresholds.bandwidth_min_fraction },
        { "gemm_min_fraction", thresholds.gemm_min_fraction } };
}

nlohmann::json to_json(const Validation& validation)
{
    nlohmann::json out = { { "tiers", validation.tiers }, { "thresholds", to_json(validation.thresholds) } };
    if (validation.acceptance)
        out["acceptance"] = resolve::to_json(*validation.acceptance);
    return out;
}

} // namespace dlenv::lock
