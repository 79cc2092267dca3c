#include "store/recovery.h"

#include "core/error.h"
#include "oci/media_types.h"
#include "store/store.h"
#include "store/tags.h"

#include <optional>

namespace dlenv::store {
namespace {

// "NAME:TAG" of an entry dlenv may have written.
std::optional<ImageTag> tag_of(const oci::Descriptor& entry)
{
    auto ref = entry.annotations.find(oci::k_ref_name_annotation);
    if (ref == entry.annotations.end())
        return std::nullopt;
    ImageTag tag = ImageTag::parse(ref->second);
    try {
        check_image_name(tag.name);
    } catch (const Error&) {
        return std::nullopt;
    }
    // A bare name gets the tag "latest" from parse, but dlenv never writes one.
    return !tag.tag.empty() && ref_name(tag.name, tag.tag) == ref->second ? std::optional(tag) : std::nullopt;
}

// Whether the last move of `tag` in the history removed it.
bool removed(const ImageRecord& record, const std::string& tag)
{
    for (auto entry = record.history.rbegin(); entry != record.history.rend(); ++entry)
        for (auto move = entry->moved.rbegin(); move != entry->moved.rend(); ++move)
            if (move->tag == tag)
                return !move->to;
    return false;
}

bool lost(const Records& records, const ImageTag& tag, bool records_missing)
{
    auto record = records.images.find(tag.name);
    if (record == records.images.end())
        return records_missing;
    return !record->second.tags.count(tag.tag) && !removed(record->second, tag.tag);
}

} // namespace

Recovery recover_tags(
    Records& records, const std::vector<oci::Descriptor>& index, bool records_missing, std::int64_t time)
{
    Recovery recovery { records_missing, {} };
    for (const auto& entry : index) {
        std::optional<ImageTag> tag = tag_of(entry);
        if (!tag || !lost(records, *tag, records_missing))
            continue;
        oci::Descriptor image = entry;
        image.annotations.erase(oci::k_ref_name_annotation);
        record_recovery(records, tag->name, tag->tag, image, time);
        recovery.refs.push_back(ref_name(tag->name, tag->tag));
    }
    return recovery;
}

} // namespace dlenv::store
