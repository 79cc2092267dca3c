#include "store/tags.h"

#include "core/error.h"
#include "core/time_text.h"

namespace dlenv::store {
namespace {

std::optional<oci::Digest> digest_of(const ImageRecord& record, std::string_view tag)
{
    auto found = record.tags.find(std::string(tag));
    return found == record.tags.end() ? std::nullopt : std::optional(found->second.digest);
}

// Moves `tag` to `to` (or removes it) and says so in `entry`.
void move_tag(ImageRecord& record, HistoryEntry& entry, std::string_view tag, const std::optional<oci::Descriptor>& to)
{
    std::optional<oci::Digest> from = digest_of(record, tag);
    std::optional<oci::Digest> target = to ? std::optional(to->digest) : std::nullopt;
    if (from == target)
        return;
    if (to)
        record.tags.insert_or_assign(std::string(tag), *to);
    else
        record.tags.erase(std::string(tag));
    entry.moved.push_back({std::string(tag), from, target});
}

// The image `latest` pointed at before a build last moved it to `image`. Rollbacks do not
// count: they move latest backwards, and following them would step forward again.
std::optional<oci::Digest> latest_before(const ImageRecord& record, const oci::Digest& image)
{
    for (auto entry = record.history.rbegin(); entry != record.history.rend(); ++entry)
        for (const auto& move : entry->action == "build" ? entry->moved : std::vector<TagMove>{})
            if (move.tag == k_latest && move.to == image)
                return move.from;
    return std::nullopt;
}

std::optional<oci::Descriptor> descriptor_in_history(const ImageRecord& record, const oci::Digest& digest)
{
    for (const auto& entry : record.history)
        if (entry.image.digest == digest)
            return entry.image;
    return std::nullopt;
}

} // namespace

const HistoryEntry& record_build(Records& records, const std::string& name, const oci::Descriptor& image,
                                 const std::string& lock_digest, std::int64_t time)
{
    check_image_name(name);
    ImageRecord& record = records.images[name];
    HistoryEntry entry{rfc3339_utc(time), "build", lock_digest, image, {}};
    auto latest = record.tags.find(std::string(k_latest));
    if (latest == record.tags.end() || latest->second.digest != image.digest) {
        if (latest != record.tags.end())
            move_tag(record, entry, k_rollback, latest->second);
        move_tag(record, entry, k_latest, image);
    }
    record.history.push_back(std::move(entry));
    return record.history.back();
}

const HistoryEntry& roll_back(Records& records, const std::string& name, std::int64_t time,
                              const std::function<bool(const oci::Digest&)>& present)
{
    ImageRecord& record = records.at(name);
    auto rollback = record.tags.find(std::string(k_rollback));
    if (rollback == record.tags.end())
        throw Error(ErrorCode::conflict, name + " has no rollback image",
                    "rollback needs a previous build: `latest` has been the only image of " + name);
    oci::Descriptor target = rollback->second;
    HistoryEntry entry{rfc3339_utc(time), "rollback", "", target, {}};
    std::optional<oci::Digest> before = latest_before(record, target.digest);
    std::optional<oci::Descriptor> next_rollback;
    if (before && present(*before))
        next_rollback = descriptor_in_history(record, *before);
    move_tag(record, entry, k_latest, target);
    move_tag(record, entry, k_rollback, next_rollback);
    record.history.push_back(std::move(entry));
    return record.history.back();
}

const HistoryEntry& record_pull(Records& records, const std::string& name, const std::string& tag,
                                const oci::Descriptor& image, std::int64_t time)
{
    check_image_name(name);
    ImageRecord& record = records.images[name];
    HistoryEntry entry{rfc3339_utc(time), "pull", "", image, {}};
    move_tag(record, entry, tag, image);
    record.history.push_back(std::move(entry));
    return record.history.back();
}

} // namespace dlenv::store
