#include "oci/descriptor.h"

#include "core/error.h"
#include "core/json_reader.h"
#include "oci/media_types.h"

namespace dlenv::oci {
namespace {

Error malformed(const std::string& where, const std::string& what)
{
    return Error(ErrorCode::invalid_input, where + ": " + what);
}

const nlohmann::json& member(const nlohmann::json& json, const char* key, const std::string& where)
{
    if (!json.is_object() || !json.contains(key))
        throw malformed(where, std::string("missing \"") + key + "\"");
    return json.at(key);
}

std::string string_member(const nlohmann::json& json, const char* key, const std::string& where)
{
    const auto& value = member(json, key, where);
    if (!value.is_string())
        throw malformed(where, std::string("\"") + key + "\" must be a string");
    return value.get<std::string>();
}

// The "digest" field, refused naming `where`: Digest::parse knows only the text.
Digest digest_member(const nlohmann::json& json, const std::string& where)
{
    std::string text = string_member(json, "digest", where);
    try {
        return Digest::parse(text);
    } catch (const Error& e) {
        throw Error(e.code(), where + ": \"digest\": " + e.message(), e.hint());
    }
}

// An optional string field: `fallback` when absent or null.
std::string optional_string_member(
    const nlohmann::json& json, const char* key, const std::string& where, std::string fallback)
{
    if (!json.is_object() || !json.contains(key) || json.at(key).is_null())
        return fallback;
    return string_member(json, key, where);
}

std::map<std::string, std::string> annotations_of(const nlohmann::json& json, const std::string& where)
{
    std::map<std::string, std::string> out;
    if (!json.contains("annotations") || json.at("annotations").is_null())
        return out;
    const auto& annotations = json.at("annotations");
    if (!annotations.is_object())
        throw malformed(where, "\"annotations\" must be an object of strings");
    for (const auto& [key, value] : annotations.items()) {
        if (!value.is_string())
            throw malformed(where, "annotation \"" + key + "\" must be a string");
        out[key] = value.get<std::string>();
    }
    return out;
}

nlohmann::json parse_json(std::string_view bytes, const std::string& where)
{
    return JsonReader::parse_document(where, bytes);
}

void check_schema_version(const nlohmann::json& json, const std::string& where)
{
    const auto& version = member(json, "schemaVersion", where);
    if (!version.is_number_integer() || version.get<int>() != 2)
        throw malformed(where, "\"schemaVersion\" must be 2");
}

} // namespace

nlohmann::json Descriptor::to_json() const
{
    nlohmann::json out = { { "mediaType", media_type }, { "digest", digest.text() }, { "size", size } };
    if (!annotations.empty())
        out["annotations"] = annotations;
    if (platform) {
        out["platform"] = { { "architecture", platform->architecture }, { "os", platform->os } };
        if (!platform->variant.empty())
            out["platform"]["variant"] = platform->variant;
    }
    return out;
}

Descriptor Descriptor::from_json(const nlohmann::json& json, const std::string& where)
{
    const auto& size = member(json, "size", where);
    if (!size.is_number_integer() || size.get<std::int64_t>() < 0)
        throw malformed(where, "\"size\" must be a non-negative integer");
    Descriptor out { string_member(json, "mediaType", where), digest_member(json, where), size.get<std::int64_t>(),
        annotations_of(json, where), std::nullopt };
    if (json.contains("platform")) {
        const auto& platform = json.at("platform");
        out.platform = Platform { string_member(platform, "architecture", where + " platform"),
            string_member(platform, "os", where + " platform"),
            optional_string_member(platform, "variant", where + " platform", "") };
    }
    return out;
}

nlohmann::json Manifest::to_json() const
{
    nlohmann::json layer_list = nlohmann::json::array();
    for (const auto& layer : layers)
        layer_list.push_back(layer.to_json());
    nlohmann::json out = { { "schemaVersion", 2 }, { "mediaType", media_type }, { "config", config.to_json() },
        { "layers", layer_list } };
    if (!annotations.empty())
        out["annotations"] = annotations;
    return out;
}

Manifest Manifest::parse(std::string_view bytes, const std::string& where)
{
    nlohmann::json json = parse_json(bytes, where);
    check_schema_version(json, where);
    std::string type = optional_string_member(json, "mediaType", where, std::string(media_type::k_manifest));
    if (type != media_type::k_manifest && type != media_type::k_docker_manifest)
        throw malformed(where, "media type \"" + type + "\" is not an image manifest");
    Manifest out { type, Descriptor::from_json(member(json, "config", where), where + " config"), {}, {} };
    const auto& layers = member(json, "layers", where);
    if (!layers.is_array())
        throw malformed(where, "\"layers\" must be an array");
    for (std::size_t i = 0; i < layers.size(); ++i)
        out.layers.push_back(Descriptor::from_json(layers[i], where + " layers[" + std::to_string(i) + "]"));
    out.annotations = annotations_of(json, where);
    return out;
}

nlohmann::json Index::to_json() const
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto& manifest : manifests)
        list.push_back(manifest.to_json());
    nlohmann::json out = { { "schemaVersion", 2 }, { "mediaType", media_type::k_index }, { "manifests", list } };
    if (!annotations.empty())
        out["annotations"] = annotations;
    return out;
}

Index Index::parse(std::string_view bytes, const std::string& where)
{
    nlohmann::json json = parse_json(bytes, where);
    check_schema_version(json, where);
    Index out;
    const auto& manifests = member(json, "manifests", where);
    if (!manifests.is_array())
        throw malformed(where, "\"manifests\" must be an array");
    for (std::size_t i = 0; i < manifests.size(); ++i)
        out.manifests.push_back(Descriptor::from_json(manifests[i], where + " manifests[" + std::to_string(i) + "]"));
    out.annotations = annotations_of(json, where);
    return out;
}

std::string to_blob_json(const nlohmann::json& value)
{
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
}

} // namespace dlenv::oci
