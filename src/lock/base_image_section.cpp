#include "lock/base_image_section.h"

#include "lock/section_json.h"

namespace dlenv::lock {
namespace {

nlohmann::json optional_digest(const std::optional<Digest>& digest)
{
    return digest ? nlohmann::json(digest->text()) : nlohmann::json(nullptr);
}

} // namespace

BaseImageSection read_base_image_section(const JsonReader& base)
{
    base.allow_only({ "reference", "digest", "manifest", "platform" });
    return { base.at("reference").string(), base.optional_as<Digest>("digest"), base.optional_as<Digest>("manifest"),
        base.at("platform").string() };
}

nlohmann::json to_json(const BaseImageSection& base)
{
    return { { "reference", base.reference }, { "digest", optional_digest(base.digest) },
        { "manifest", optional_digest(base.manifest) }, { "platform", base.platform } };
}

} // namespace dlenv::lock
