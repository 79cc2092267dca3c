#include "store/layer_cache.h"

#include "core/canonical_json.h"
#include "core/error.h"
#include "core/file.h"

namespace dlenv::store {
namespace {

std::filesystem::path cache_dir(const Store& store)
{
    return store.records_dir() / "layers";
}

std::optional<CachedLayer> read_entry(const std::filesystem::path& file)
{
    try {
        nlohmann::json json = nlohmann::json::parse(read_file(file));
        return CachedLayer{oci::Descriptor::from_json(json.at("descriptor"), file.string()),
                           oci::Digest::parse(json.at("diff_id").get<std::string>())};
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
    if (!layer || !store.layout().has_blob(layer->descriptor.digest))
        return std::nullopt;
    return layer;
}

void remember_layer(const Store& store, const std::string& key, const CachedLayer& layer)
{
    write_file_atomic(cache_dir(store) / (key + ".json"),
                      to_canonical_json({{"descriptor", layer.descriptor.to_json()}, {"diff_id", layer.diff_id.text()}}));
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
