#include "store/records.h"

#include "core/canonical_json.h"
#include "core/closest.h"
#include "core/error.h"
#include "core/file.h"
#include "core/json_reader.h"

#include <utility>

namespace dlenv::store {
namespace {

constexpr std::string_view k_format = "dlenv.store/v1";

nlohmann::json optional_digest(const std::optional<Digest>& digest)
{
    return digest ? nlohmann::json(digest->text()) : nlohmann::json(nullptr);
}

Error damaged(const std::string& message)
{
    return Error(ErrorCode::invalid_input, message,
        "the store's records are damaged: repair dlenv/refs.json, or move it aside and dlenv takes the tags back "
        "from index.json (without their history)");
}

std::optional<Digest> optional_digest(const nlohmann::json& json, const std::string& where)
{
    if (json.is_null())
        return std::nullopt;
    try {
        return Digest::parse(json.get<std::string>());
    } catch (const Error& e) {
        throw damaged(where + ": " + e.message());
    }
}

nlohmann::json to_json(const HistoryEntry& entry)
{
    nlohmann::json moved = nlohmann::json::array();
    for (const auto& move : entry.moved)
        moved.push_back(
            { { "tag", move.tag }, { "from", optional_digest(move.from) }, { "to", optional_digest(move.to) } });
    return { { "time", entry.time }, { "action", entry.action }, { "lock_digest", entry.lock_digest },
        { "image", entry.image.to_json() }, { "moved", moved } };
}

HistoryEntry history_entry(const nlohmann::json& json, const std::string& where)
{
    HistoryEntry entry { json.at("time").get<std::string>(), json.at("action").get<std::string>(),
        json.at("lock_digest").get<std::string>(), oci::Descriptor::from_json(json.at("image"), where), {} };
    for (const auto& move : json.at("moved"))
        entry.moved.push_back({ move.at("tag").get<std::string>(), optional_digest(move.at("from"), where),
            optional_digest(move.at("to"), where) });
    return entry;
}

// The object `key` of `json`, which a field of another type would let pass as empty.
const nlohmann::json& member(
    const nlohmann::json& json, const char* key, const std::filesystem::path& file, const std::string& field)
{
    const nlohmann::json& value = json.at(key);
    if (!value.is_object())
        throw damaged(file.string() + ": " + field + " must be an object");
    return value;
}

} // namespace

Records Records::read(const std::filesystem::path& file)
{
    Records records;
    if (!std::filesystem::exists(file))
        return records;
    nlohmann::json json;
    try {
        json = JsonReader::parse_document(file.string(), read_file(file));
    } catch (const Error& e) {
        if (e.code() != ErrorCode::invalid_input)
            throw;
        throw damaged(e.message());
    }
    try {
        if (json.value("format", std::string()) != k_format)
            throw Error(ErrorCode::invalid_input, file.string() + ": format must be \"" + std::string(k_format) + "\"",
                "this store was written by another dlenv version; use that version or a new store");
        for (const auto& [name, image] : member(json, "images", file, "images").items()) {
            ImageRecord& record = records.images[name];
            std::string field = "images." + name;
            for (const auto& [tag, descriptor] : member(image, "tags", file, field + ".tags").items())
                record.tags.emplace(
                    tag, oci::Descriptor::from_json(descriptor, file.string() + " " + name + ":" + tag));
            for (const auto& entry : image.at("history"))
                record.history.push_back(history_entry(entry, file.string() + " history of " + name));
        }
    } catch (const nlohmann::json::exception& e) {
        throw damaged(file.string() + ": " + e.what());
    }
    return records;
}

void Records::write(const std::filesystem::path& file) const
{
    nlohmann::json json_images = nlohmann::json::object();
    for (const auto& [name, record] : images) {
        nlohmann::json tags = nlohmann::json::object();
        for (const auto& [tag, descriptor] : record.tags)
            tags[tag] = descriptor.to_json();
        nlohmann::json history = nlohmann::json::array();
        for (const auto& entry : record.history)
            history.push_back(to_json(entry));
        json_images[name] = { { "tags", tags }, { "history", history } };
    }
    write_file_atomic(file, to_canonical_json({ { "format", k_format }, { "images", json_images } }));
}

const ImageRecord& Records::at(const std::string& name) const
{
    auto found = images.find(name);
    if (found != images.end())
        return found->second;
    std::vector<std::string> names;
    for (const auto& [known, record] : images)
        names.push_back(known);
    auto near = closest_matches(name, names, 3);
    throw Error(ErrorCode::not_found, "no image named \"" + name + "\" in the store",
        names.empty()      ? "the store is empty: build an image first with `dlenv build`"
            : near.empty() ? "`dlenv images` lists what the store has"
                           : "did you mean " + join_alternatives(near) + "?");
}

ImageRecord& Records::at(const std::string& name)
{
    return const_cast<ImageRecord&>(std::as_const(*this).at(name));
}

ImageTag ImageTag::parse(const std::string& text)
{
    std::size_t slash = text.rfind('/');
    std::size_t colon = text.find(':', slash == std::string::npos ? 0 : slash);
    if (colon == std::string::npos)
        return { text, "latest" };
    return { text.substr(0, colon), text.substr(colon + 1) };
}

} // namespace dlenv::store
