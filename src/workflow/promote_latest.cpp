#include "workflow/promote_latest.h"

#include "core/error.h"
#include "store/store.h"
#include "store/tags.h"
#include "verify/image_platform.h"
#include "verify/promotion.h"
#include "workflow/registry_documents.h"

#include <algorithm>
#include <vector>

namespace dlenv::workflow {
namespace {

std::string joined(const std::vector<std::string>& parts, const std::string& separator)
{
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i)
        out += (i == 0 ? "" : separator) + parts[i];
    return out;
}

// The reports of each image of NAME:latest in the registry (latest itself, or each
// platform's of its index), once what the registry names is latest.
ImageSetDocuments registry_reports(
    const std::string& name, const oci::Descriptor& latest, const ImageReference& reference, bool insecure)
{
    ImageSetDocuments found = platform_documents(reference, insecure);
    if (found.digest != latest.digest)
        throw Error(ErrorCode::verification_failed,
            reference.text() + " is image " + found.digest.text() + ", but " + name + ":latest is "
                + latest.digest.text(),
            "pull " + reference.text() + " into the store, or push " + name + ":latest there");
    return found;
}

// One problem per GPU model of the lock no passing gpu-tier report covers.
std::vector<std::string> uncovered_models(
    const std::vector<std::string>& models, const std::vector<store::TierVerification>& reports)
{
    std::vector<std::string> problems;
    for (const auto& model : models) {
        bool covered = std::any_of(reports.begin(), reports.end(), [&](const store::TierVerification& report) {
            return report.tier == "gpu" && report.passed && node_facts(report.report).has_model(model);
        });
        if (!covered)
            problems.push_back("no passing `gpu` report from a node with " + model
                + " (run `dlenv verify --tier gpu` on one and push its report)");
    }
    return problems;
}

} // namespace

store::HistoryEntry promote_latest(const PromoteRequest& request)
{
    const std::string& name = request.name;
    store::Store store = store::Store::open_for_writing(request.store_dir);
    std::optional<oci::Descriptor> latest = store.find(name, std::string(store::k_latest));
    std::vector<store::TierVerification> reports;
    std::optional<verify::PromotionCheck> found_check;
    if (!request.from_registry || !latest) {
        found_check = verify::check_promotion(store, name); // the errors of an unknown name or no latest
        if (latest) // each platform's image of an index has its own record
            for (const auto& image : verify::platform_images(store.layout(), *latest))
                for (const auto& [tier, verification] : store::read_verification(store, image.digest).tiers)
                    reports.push_back(verification);
    } else {
        std::vector<store::Verification> records;
        for (const auto& image : registry_reports(name, *latest, *request.from_registry, request.insecure).images) {
            for (const auto& report : image.documents.reports)
                reports.push_back(report.verification);
            records.push_back(newest_per_tier(image.image.digest, image.documents.reports));
        }
        found_check = verify::check_promotion(store, name, records, "in " + request.from_registry->text());
    }
    verify::PromotionCheck check = std::move(*found_check);
    if (request.require_gpu_models) {
        std::vector<std::string> missing = uncovered_models(check.gpu_models, reports);
        check.problems.insert(check.problems.end(), missing.begin(), missing.end());
    }
    if (!check.problems.empty())
        throw Error(ErrorCode::verification_failed,
            name + ":latest cannot be promoted: " + joined(check.problems, "; "),
            "its lock requires passing verifications of the tiers " + joined(check.required, ", ")
                + " (the profile's \"validation\": {\"tiers\": [...]})");
    store::Records records = store.records();
    store::HistoryEntry entry = store::record_promotion(records, name, check.image, request.clock());
    store.commit(std::move(records));
    return entry;
}

} // namespace dlenv::workflow
