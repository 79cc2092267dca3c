#include "store/layer_cache.h"

#include "core/canonical_json.h"
#include "core/error.h"
#include "core/file.h"
#include "core/json_reader.h"

namespace dlenv::store {
namespace {

std::filesystem::path cache_dir(const Store& store)
{
    return store.records_dir() / "layers";
}

// Bumped when an entry's meaning changes; entries of another format are misses.
constexpr std::string_view k_format = "dlenv.layer-cache/v1";

std::optional<CachedLayer> read_entry(const std::filesystem::path& file)
{
    try {
        nlohmann::json json = JsonReader::parse_document(file.string(), read_file(file));
        if (json.value("format", std::string()) != k_format)
            return std::nullopt;
        return CachedLayer { oci::Descriptor::from_json(json.at("descriptor"), file.string()),
            Digest::parse(json.at("diff_id").get<std::string>()) };
    } catch (const nlohmann::json::exception&) {
        return std::nullopt; // a damaged cache entry only costs a rebuild of its layer
    } catch (const Error&) {
        return std::nullopt;
    }
}

} // namespace

std::optional<CachedLayer> find_cached_layer(const Store& store, const std::string& key)
{
    std::filesystem::path file = cache_dir(store) / (key + ".json");
    if (!std::filesystem::exists(file))
        return std::nullopt;
    std::optional<CachedLayer> layer = read_entry(file);
    if (!layer)
        return std::nullopt;
    std::error_code ec;
    auto size = std::filesystem::file_size(store.layout().blob_path(layer->descriptor.digest), ec);
    if (ec || static_cast<std::int64_t>(size) != layer->descriptor.size)
        return std::nullopt; // gone or truncated: write the layer again
    return layer;
}

void remember_layer(const Store& store, const std::string& key, const CachedLayer& layer)
{
    write_file_atomic(cache_dir(store) / (key + ".json"),
        to_canonical_json({ { "format", k_format }, { "descriptor", layer.descriptor.to_json() },
            { "diff_id", layer.diff_id.text() } }));
}

std::size_t forget_missing_layers(const Store& store)
{
    std::size_t forgotten = 0;
    if (!std::filesystem::exists(cache_dir(store)))
        return forgotten;
    for (const auto& entry : std::filesystem::directory_iterator(cache_dir(store))) {
        std::optional<CachedLayer> layer = read_entry(entry.path());
        if (!layer || !store.layout().has_blob(layer->descriptor.digest)) {
            std::filesystem::remove(entry.path());
            ++forgotten;
        }
    }
    return forgotten;
}

} // namespace dlenv::store
