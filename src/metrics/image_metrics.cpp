#include "metrics/image_metrics.h"

#include "core/time_text.h"
#include "store/tags.h"

#include <optional>

namespace dlenv::metrics {
namespace {

// The time of the last history entry that moved production to `digest`.
std::optional<std::int64_t> production_since(const store::ImageRecord& record, const Digest& digest)
{
    for (auto entry = record.history.rbegin(); entry != record.history.rend(); ++entry)
        for (const auto& move : entry->moved)
            if (move.tag == store::k_production && move.to == digest)
                return parse_rfc3339_utc(entry->time);
    return std::nullopt;
}

} // namespace

std::vector<Family> image_families(const store::Records& records)
{
    Family tags { "dlenv_image_tag_info", "The digest each tag of an image in the store names, value 1.", {} };
    Family since { "dlenv_image_production_timestamp_seconds", "When production moved to the digest it names.", {} };
    for (const auto& [name, record] : records.images) {
        for (const auto& [tag, descriptor] : record.tags)
            tags.samples.push_back(
                { { { "image", name }, { "tag", tag }, { "digest", descriptor.digest.text() } }, 1 });
        auto production = record.tags.find(std::string(store::k_production));
        if (production == record.tags.end())
            continue;
        if (auto time = production_since(record, production->second.digest))
            since.samples.push_back({ { { "image", name } }, double(*time) });
    }
    return { std::move(tags), std::move(since) };
}

} // namespace dlenv::metrics
