#include "lock/platform_section.h"

#include "lock/section_json.h"

namespace dlenv::lock {

PlatformSection read_platform_section(const JsonReader& field)
{
    field.allow_only({ "platform", "base_manifest", "carries", "python", "packages" });
    auto carries = field.find("carries");
    return { field.at("platform").string(), field.optional_as<Digest>("base_manifest"),
        carries ? std::optional(read_base_carries(*carries)) : std::nullopt,
        read_python_environment(field.at("python")), read_locked_packages(field.find("packages")) };
}

nlohmann::json to_json(const PlatformSection& section)
{
    nlohmann::json json = { { "platform", section.platform },
        { "base_manifest", section.manifest ? nlohmann::json(section.manifest->text()) : nlohmann::json(nullptr) },
        { "python", to_json(section.python) }, { "packages", packages_json(section.packages) } };
    if (section.carries)
        json["carries"] = to_json(*section.carries);
    return json;
}

} // namespace dlenv::lock
