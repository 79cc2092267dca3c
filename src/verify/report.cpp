#include "verify/report.h"

#include <algorithm>

namespace dlenv::verify {
namespace {

// "gpu_uuids" beside "gpus", one each, null where the driver gave none.
nlohmann::json host_json(const HostFacts& host)
{
    nlohmann::json uuids = nlohmann::json::array();
    for (const auto& uuid : host.gpu_uuids)
        uuids.push_back(uuid ? nlohmann::json(uuid->text()) : nlohmann::json(nullptr));
    return { { "kernel", host.kernel }, { "node", host.node },
        { "driver", host.driver ? nlohmann::json(host.driver->text()) : nlohmann::json(nullptr) },
        { "gpus", host.gpus }, { "gpu_uuids", uuids } };
}

// The same keys as the lock's validation.thresholds; an empty object when no lock was read.
nlohmann::json thresholds_json(const std::optional<lock::Thresholds>& thresholds)
{
    if (!thresholds)
        return nlohmann::json::object();
    return { { "bandwidth_min_fraction", thresholds->bandwidth_min_fraction },
        { "gemm_min_fraction", thresholds->gemm_min_fraction } };
}

nlohmann::json findings_json(const TierReport& tier)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& finding : tier.findings)
        out.push_back(
            { { "code", finding.code }, { "outcome", outcome_name(finding.verdict) }, { "message", finding.message } });
    return out;
}

nlohmann::json figures_json(const TierReport& tier)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& figure : tier.figures)
        out.push_back({ { "name", figure.name }, { "value", figure.value }, { "unit", figure.unit },
            { "threshold", figure.threshold ? nlohmann::json(*figure.threshold) : nlohmann::json(nullptr) } });
    return out;
}

nlohmann::json tier_body(const TierReport& tier)
{
    return { { "tier", tier.tier }, { "passed", tier.passed() }, { "seconds", tier.seconds },
        { "counts",
            { { "pass", tier.count(Verdict::ok) }, { "fail", tier.count(Verdict::fail) },
                { "skip", tier.count(Verdict::unknown) }, { "warn", tier.count(Verdict::warn) } } },
        { "findings", findings_json(tier) }, { "figures", figures_json(tier) } };
}

} // namespace

std::string_view outcome_name(Verdict verdict)
{
    switch (verdict) {
    case Verdict::ok:
        return "pass";
    case Verdict::warn:
        return "warn";
    case Verdict::fail:
        return "fail";
    case Verdict::unknown:
        return "skip";
    }
    return "fail";
}

bool TierReport::passed() const
{
    return count(Verdict::fail) == 0;
}

std::size_t TierReport::count(Verdict verdict) const
{
    return static_cast<std::size_t>(std::count_if(
        findings.begin(), findings.end(), [&](const Finding& finding) { return finding.verdict == verdict; }));
}

bool Report::passed() const
{
    return std::all_of(tiers.begin(), tiers.end(), [](const TierReport& tier) { return tier.passed(); });
}

nlohmann::json Report::to_json() const
{
    nlohmann::json tiers_out = nlohmann::json::array();
    for (const auto& tier : tiers)
        tiers_out.push_back(tier_body(tier));
    nlohmann::json missing = nlohmann::json::array();
    for (const auto& [tier, why] : unavailable)
        missing.push_back({ { "tier", tier }, { "reason", why } });
    return { { "name", name }, { "digest", digest }, { "lock_digest", lock_digest }, { "runtime", runtime },
        { "time", time }, { "host", host_json(host) }, { "thresholds", thresholds_json(thresholds) },
        { "tiers", tiers_out }, { "unavailable", missing }, { "passed", passed() } };
}

nlohmann::json Report::tier_json(const TierReport& tier) const
{
    nlohmann::json out = tier_body(tier);
    out["host"] = host_json(host);
    out["runtime"] = runtime;
    out["time"] = time;
    out["lock_digest"] = lock_digest;
    out["thresholds"] = thresholds_json(thresholds);
    return out;
}

} // namespace dlenv::verify
