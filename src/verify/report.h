#pragma once

#include "core/finding.h"
#include "core/host_facts.h"
#include "lock/validation.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::verify {

// A check's result is core's `Finding`: a stable code tests and scripts branch on
// ("library-closure", "file-sha256", ...), a verdict and words for people. Verify's checks
// pass (ok), fail, or skip (unknown: the check did not apply or could not run). Only the
// framework-on-base findings warn (resolve::check_framework_on_base): a framework that
// may run on its base with less than it was built with. A warning does not fail a tier.

// A verdict as verify reports it and the kit writes it: "pass", "fail", "skip", "warn".
std::string_view outcome_name(Verdict verdict);

// A measured number, with the threshold it was held to when there is one.
struct Figure {
    std::string name; // "unpack_seconds"
    double value;
    std::string unit; // "s", "MB/s", "fraction"
    std::optional<double> threshold;
};

// One tier's result. A tier passes when none of its findings failed.
struct TierReport {
    std::string tier; // "static", "gpu", "framework"
    std::vector<Finding> findings;
    std::vector<Figure> figures;
    double seconds = 0;

    bool passed() const;
    std::size_t count(Verdict verdict) const;
};

// The result of `dlenv verify` on one image.
struct Report {
    std::string name; // image name
    std::string digest; // manifest digest, "sha256:..."
    std::string lock_digest; // the lock the image carries
    std::string runtime; // "runc", "crun", "bwrap"
    std::string time; // RFC 3339, UTC
    HostFacts host; // what the host offered the checks
    std::vector<TierReport> tiers;
    std::vector<std::pair<std::string, std::string>> unavailable; // tier, why it could not run
    std::optional<lock::Thresholds> thresholds; // the lock's validation thresholds; nullopt: no lock was read

    // Every tier that ran passed (unavailable tiers are not passes: see `unavailable`).
    bool passed() const;
    // The report as data; `tier_json` is one tier with the host facts, the runtime and
    // the time beside it, as the store records it.
    nlohmann::json to_json() const;
    nlohmann::json tier_json(const TierReport& tier) const;
};

} // namespace dlenv::verify
