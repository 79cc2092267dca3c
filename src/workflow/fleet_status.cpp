#include "workflow/fleet_status.h"

#include "lock/lockfile.h"

#include <map>
#include <utility>

namespace dlenv::workflow {
FleetStatus fleet_status(const ImageDocuments& found)
{
    FleetStatus status { found.image, {}, {}, {}, {} };
    std::map<std::pair<std::string, std::string>, NodeReport> newest;
    for (const auto& report : found.documents.reports) {
        const store::TierVerification& tier = report.verification;
        NodeReport entry { report.node, tier.tier, tier.passed, tier.time, report.artifact };
        auto [at, added] = newest.emplace(std::make_pair(report.node.host, tier.tier), entry);
        if (!added && at->second.time < tier.time)
            at->second = entry;
    }
    for (auto& [key, report] : newest)
        status.reports.push_back(std::move(report));
    if (!found.documents.lock)
        return status;
    lock::Lockfile lock = lock::Lockfile::parse(found.documents.source + " lock", *found.documents.lock);
    for (const auto& gpu : lock.stack().gpus) {
        bool ran = false, passed = false;
        for (const auto& report : status.reports)
            if (report.tier == "gpu" && report.node.has_model(gpu.name)) {
                ran = true;
                passed = passed || report.passed;
            }
        (passed ? status.models_passed : ran ? status.models_failed : status.models_missing).push_back(gpu.name);
    }
    return status;
}

} // namespace dlenv::workflow
