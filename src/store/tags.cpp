#include "store/tags.h"

#include "core/error.h"
#include "core/time_text.h"

namespace dlenv::store {
namespace {

std::optional<Digest> digest_of(const ImageRecord& record, std::string_view tag)
{
    auto found = record.tags.find(std::string(tag));
    return found == record.tags.end() ? std::nullopt : std::optional(found->second.digest);
}

// Moves `tag` to `to` (or removes it) and says so in `entry`.
void move_tag(ImageRecord& record, HistoryEntry& entry, std::string_view tag, const std::optional<oci::Descriptor>& to)
{
    std::optional<Digest> from = digest_of(record, tag);
    std::optional<Digest> target = to ? std::optional(to->digest) : std::nullopt;
    if (from == target)
        return;
    if (to)
        record.tags.insert_or_assign(std::string(tag), *to);
    else
        record.tags.erase(std::string(tag));
    entry.moved.push_back({ std::string(tag), from, target });
}

// The image `tag` pointed at before an `action` (a build for latest, a promotion for
// production) last moved it to `image`. Rollbacks do not count: they move the tag
// backwards, and following them would step forward again.
std::optional<Digest> tag_before(
    const ImageRecord& record, std::string_view action, std::string_view tag, const Digest& image)
{
    for (auto entry = record.history.rbegin(); entry != record.history.rend(); ++entry)
        for (const auto& move : entry->action == action ? entry->moved : std::vector<TagMove> {})
            if (move.tag == tag && move.to == image)
                return move.from;
    return std::nullopt;
}

std::optional<oci::Descriptor> descriptor_in_history(const ImageRecord& record, const Digest& digest)
{
    for (const auto& entry : record.history)
        if (entry.image.digest == digest)
            return entry.image;
    return std::nullopt;
}

struct Steps {
    std::string_view tag; // the tag that moves back
    std::string_view previous_tag; // where it moves back to
    std::string_view forward_action; // the history action that moves `tag` forward
    std::string_view action; // the history action of the step back
    std::string hint; // when there is nowhere to go back to
};

// Moves `tag` back to `previous_tag`'s image and `previous_tag` one step further back.
const HistoryEntry& step_back(Records& records, const std::string& name, std::int64_t time,
    const std::function<bool(const Digest&)>& present, const Steps& steps)
{
    ImageRecord& record = records.at(name);
    auto previous = record.tags.find(std::string(steps.previous_tag));
    if (previous == record.tags.end())
        throw Error(ErrorCode::conflict, name + " has no " + std::string(steps.previous_tag) + " image",
            std::string(steps.hint));
    oci::Descriptor target = previous->second;
    HistoryEntry entry { rfc3339_utc(time), std::string(steps.action), "", target, {} };
    std::optional<Digest> before = tag_before(record, steps.forward_action, steps.tag, target.digest);
    std::optional<oci::Descriptor> next_previous;
    if (before && present(*before))
        next_previous = descriptor_in_history(record, *before);
    move_tag(record, entry, steps.tag, target);
    move_tag(record, entry, steps.previous_tag, next_previous);
    record.history.push_back(std::move(entry));
    return record.history.back();
}

// `tag` of `name` moves to `image` for `action`, which names where the image came from.
const HistoryEntry& record_tag(Records& records, const std::string& name, const std::string& tag,
    const oci::Descriptor& image, std::int64_t time, std::string_view action)
{
    check_image_name(name);
    ImageRecord& record = records.images[name];
    HistoryEntry entry { rfc3339_utc(time), std::string(action), "", image, {} };
    move_tag(record, entry, tag, image);
    record.history.push_back(std::move(entry));
    return record.history.back();
}

} // namespace

const HistoryEntry& record_build(Records& records, const std::string& name, const oci::Descriptor& image,
    const std::string& lock_digest, std::int64_t time)
{
    check_image_name(name);
    ImageRecord& record = records.images[name];
    HistoryEntry entry { rfc3339_utc(time), "build", lock_digest, image, {} };
    auto latest = record.tags.find(std::string(k_latest));
    if (latest == record.tags.end() || latest->second.digest != image.digest) {
        if (latest != record.tags.end())
            move_tag(record, entry, k_rollback, latest->second);
        move_tag(record, entry, k_latest, image);
    }
    record.history.push_back(std::move(entry));
    return record.history.back();
}

const HistoryEntry& roll_back(
    Records& records, const std::string& name, std::int64_t time, const std::function<bool(const Digest&)>& present)
{
    return step_back(records, name, time, present,
        { k_latest, k_rollback, "build", "rollback",
            "rollback needs a previous build: `latest` has been the only image of " + name });
}

const HistoryEntry& record_promotion(
    Records& records, const std::string& name, const oci::Descriptor& image, std::int64_t time)
{
    ImageRecord& record = records.at(name);
    HistoryEntry entry { rfc3339_utc(time), "promote", "", image, {} };
    auto production = record.tags.find(std::string(k_production));
    if (production == record.tags.end() || production->second.digest != image.digest) {
        if (production != record.tags.end())
            move_tag(record, entry, k_production_previous, production->second);
        move_tag(record, entry, k_production, image);
    }
    record.history.push_back(std::move(entry));
    return record.history.back();
}

const HistoryEntry& record_pull(
    Records& records, const std::string& name, const std::string& tag, const oci::Descriptor& image, std::int64_t time)
{
    return record_tag(records, name, tag, image, time, "pull");
}

const HistoryEntry& record_recovery(
    Records& records, const std::string& name, const std::string& tag, const oci::Descriptor& image, std::int64_t time)
{
    return record_tag(records, name, tag, image, time, "recover");
}

const HistoryEntry& roll_back_production(
    Records& records, const std::string& name, std::int64_t time, const std::function<bool(const Digest&)>& present)
{
    return step_back(records, name, time, present,
        { k_production, k_production_previous, "promote", "rollback-production",
            "rollback --production needs an earlier promotion: `production` has been the only "
            "production image of "
                + name });
}

} // namespace dlenv::store
