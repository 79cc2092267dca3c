#include "store/image_list.h"

namespace dlenv::store {

std::string first_recorded(const ImageRecord& record, const Digest& digest)
{
    for (const auto& entry : record.history)
        if (entry.image.digest == digest)
            return entry.time;
    return "";
}

std::int64_t stored_size(const Store& store, const oci::Descriptor& manifest)
{
    oci::Manifest parsed = oci::Manifest::parse(store.layout().read_blob(manifest), manifest.digest.text());
    std::int64_t size = manifest.size + parsed.config.size;
    for (const auto& layer : parsed.layers)
        size += layer.size;
    return size;
}

std::vector<ListedImage> list_images(const Store& store)
{
    std::vector<ListedImage> images;
    for (const auto& [name, record] : store.records().images)
        for (const auto& [tag, manifest] : record.tags)
            images.push_back(
                { name, tag, manifest, first_recorded(record, manifest.digest), stored_size(store, manifest) });
    return images;
}

} // namespace dlenv::store
