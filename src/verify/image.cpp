#include "verify/image.h"

#include "core/error.h"
#include "core/json_reader.h"
#include "oci/media_types.h"

namespace dlenv::verify {
namespace {

std::vector<std::string> strings_of(const nlohmann::json& config, const char* key)
{
    auto found = config.find(key);
    if (found == config.end() || found->is_null())
        return {};
    return found->get<std::vector<std::string>>();
}

ImageProcess process_of(const nlohmann::json& image_config)
{
    ImageProcess process;
    auto found = image_config.find("config");
    if (found == image_config.end() || !found->is_object())
        return process;
    const nlohmann::json& config = *found;
    process.args = strings_of(config, "Entrypoint");
    for (auto& arg : strings_of(config, "Cmd"))
        process.args.push_back(std::move(arg));
    process.env = strings_of(config, "Env");
    process.cwd = config.value("WorkingDir", std::string());
    if (process.cwd.empty())
        process.cwd = "/";
    process.user = config.value("User", std::string());
    return process;
}

} // namespace

StoredImage read_image(const oci::ImageLayout& layout, const oci::Descriptor& descriptor)
{
    std::string where = "manifest " + descriptor.digest.short_text();
    if (descriptor.media_type == oci::media_type::k_index)
        throw Error(ErrorCode::invalid_input, where + " is an image index, not one image",
            "verify one platform's manifest; dlenv builds store one manifest per tag");
    oci::Manifest manifest = oci::Manifest::parse(layout.read_blob(descriptor), where);
    nlohmann::json config;
    try {
        config = JsonReader::parse_document(
            "config " + manifest.config.digest.short_text(), layout.read_blob(manifest.config));
        ImageProcess process = process_of(config);
        return { descriptor, std::move(manifest), std::move(config), std::move(process) };
    } catch (const nlohmann::json::exception& e) {
        throw Error(ErrorCode::invalid_input, "config " + manifest.config.digest.short_text() + ": " + e.what(),
            "the image config is damaged; build the image again");
    }
}

std::optional<std::string> env_value(const std::vector<std::string>& env, std::string_view key)
{
    for (const auto& entry : env)
        if (entry.size() > key.size() && entry.starts_with(key) && entry[key.size()] == '=')
            return entry.substr(key.size() + 1);
    return std::nullopt;
}

} // namespace dlenv::verify
