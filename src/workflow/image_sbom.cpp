#include "workflow/image_sbom.h"

#include "core/error.h"
#include "core/file.h"
#include "workflow/built_image.h"

namespace dlenv::workflow {
namespace {

// How many of the image's layers are its base's (`base`, kept in the store).
std::size_t base_layer_count(const oci::ImageLayout& layout, const oci::Manifest& manifest,
    const std::optional<Digest>& base, const std::string& shown)
{
    if (!base)
        return 0;
    const Digest& digest = *base;
    if (!layout.has_blob(digest))
        throw Error(ErrorCode::not_found, shown + ": its base's manifest " + digest.text() + " is not in the store",
            "build the image again so the store keeps its base");
    std::string bytes = read_file(layout.blob_path(digest));
    if (Digest::of(bytes) != digest)
        throw Error(ErrorCode::invalid_input,
            shown + ": the store's blob " + digest.text() + " does not match its digest",
            "`dlenv fsck` says what is damaged");
    std::size_t count = oci::Manifest::parse(bytes, digest.text()).layers.size();
    if (count > manifest.layers.size())
        throw Error(ErrorCode::invalid_input,
            shown + ": its base has " + std::to_string(count) + " layers, the image only "
                + std::to_string(manifest.layers.size()),
            "build the image again with `dlenv build`");
    return count;
}

// The layers above the base, each with what its history entry says made it.
std::vector<sbom::AddedLayer> added_layers(const verify::StoredImage& image, std::size_t base_count)
{
    const std::vector<oci::Descriptor>& layers = image.manifest.layers;
    std::vector<std::string> created_by = layer_history(image);
    std::vector<sbom::AddedLayer> added;
    for (std::size_t i = base_count; i < layers.size(); ++i)
        added.push_back({ layers[i], created_by[i].empty() ? "layer " + std::to_string(i) : created_by[i] });
    return added;
}

} // namespace

sbom::Subject sbom_subject(const std::filesystem::path& store_dir, const std::string& name, const std::string& tag)
{
    return sbom_subject(store::Store::open(store_dir), name, tag);
}

sbom::Subject sbom_subject(const store::Store& store, const std::string& name, const std::string& tag)
{
    return sbom_subject(store, name, find_tag(store, name, tag), name + ":" + tag);
}

sbom::Subject sbom_subject(
    const store::Store& store, const std::string& name, const oci::Descriptor& descriptor, const std::string& shown)
{
    BuiltImage built = read_built_image(store, descriptor, shown);
    std::size_t base_count = base_layer_count(store.layout(), built.image.manifest, built.base, shown);
    return { name, descriptor.digest, std::move(built.lock), built.base, added_layers(built.image, base_count) };
}

} // namespace dlenv::workflow
