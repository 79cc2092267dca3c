#include "workflow/promote_latest.h"

#include "core/error.h"
#include "store/store.h"
#include "store/tags.h"
#include "verify/promotion.h"

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

} // namespace

store::HistoryEntry promote_latest(const PromoteRequest& request)
{
    const std::string& name = request.name;
    store::Store store = store::Store::open_for_writing(request.store_dir);
    verify::PromotionCheck check = verify::check_promotion(store, name);
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
