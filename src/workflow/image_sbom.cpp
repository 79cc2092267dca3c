#include "workflow/image_sbom.h"

#include "core/error.h"
#include "core/file.h"
#include "oci/layer_index.h"
#include "rootfs/dlenv_files.h"
#include "verify/image.h"

namespace dlenv::workflow {
namespace {

constexpr const char* k_lock_annotation = "dev.dlenv.lock.digest";
constexpr const char* k_base_annotation = "org.opencontainers.image.base.digest";
constexpr std::int64_t k_max_lock_bytes = 64 << 20;

oci::Descriptor find_tag(const store::Store& store, const std::string& name, const std::string& tag)
{
    const store::ImageRecord& record = store.records().at(name);
    auto found = record.tags.find(tag);
    if (found == record.tags.end())
        throw Error(
            ErrorCode::not_found, name + " has no tag \"" + tag + "\"", "`dlenv images` lists the tags of each image");
    return found->second;
}

lock::Lockfile image_lock(const oci::ImageLayout& layout, const verify::StoredImage& image, const std::string& shown)
{
    const std::string path = std::string(rootfs::k_lock_file).substr(1);
    std::map<std::string, std::string> files
        = oci::read_layer_files(layout, image.manifest.layers, { path }, k_max_lock_bytes);
    auto found = files.find(path);
    if (found == files.end())
        throw Error(ErrorCode::invalid_input, shown + " holds no " + std::string(rootfs::k_lock_file),
            "an SBOM is written for images `dlenv build` made");
    lock::Lockfile lock = lock::Lockfile::parse(shown + ":" + std::string(rootfs::k_lock_file), found->second);
    auto annotation = image.manifest.annotations.find(k_lock_annotation);
    if (annotation == image.manifest.annotations.end() || annotation->second != lock.digest().text())
        throw Error(ErrorCode::invalid_input,
            shown + ": " + std::string(rootfs::k_lock_file) + " is lock " + lock.digest().text()
                + ", not the lock its manifest's " + k_lock_annotation + " names",
            "build the image again with `dlenv build`");
    return lock;
}

// The manifest of the image's base, as its annotation names it; nullopt for scratch.
std::optional<Digest> base_manifest(const oci::Manifest& manifest, const std::string& shown)
{
    auto annotation = manifest.annotations.find(k_base_annotation);
    if (annotation == manifest.annotations.end())
        return std::nullopt;
    try {
        return Digest::parse(annotation->second);
    } catch (const Error& e) {
        throw e.with_context(shown + ": the manifest's " + k_base_annotation + " annotation");
    }
}

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

// The created_by of each layer above the base: the config's last history entries are
// dlenv's, one per layer it wrote.
std::vector<sbom::AddedLayer> added_layers(const verify::StoredImage& image, std::size_t base_count)
{
    const std::vector<oci::Descriptor>& layers = image.manifest.layers;
    std::vector<std::string> created_by;
    const nlohmann::json* history = image.config.contains("history") ? &image.config["history"] : nullptr;
    if (history && history->is_array())
        for (const auto& entry : *history)
            if (entry.is_object() && !entry.value("empty_layer", false))
                created_by.push_back(entry.value("created_by", std::string()));
    std::vector<sbom::AddedLayer> added;
    for (std::size_t i = base_count; i < layers.size(); ++i) {
        std::size_t from_top = layers.size() - i;
        std::string said = from_top <= created_by.size() ? created_by[created_by.size() - from_top] : "";
        added.push_back({ layers[i], said.empty() ? "layer " + std::to_string(i) : said });
    }
    return added;
}

} // namespace

sbom::Subject sbom_subject(const std::filesystem::path& store_dir, const std::string& name, const std::string& tag)
{
    return sbom_subject(store::Store::open(store_dir), name, tag);
}

sbom::Subject sbom_subject(const store::Store& store, const std::string& name, const std::string& tag)
{
    oci::Descriptor descriptor = find_tag(store, name, tag);
    verify::StoredImage image = verify::read_image(store.layout(), descriptor);
    std::string shown = name + ":" + tag;
    lock::Lockfile lock = image_lock(store.layout(), image, shown);
    std::optional<Digest> base = base_manifest(image.manifest, shown);
    return { name, descriptor.digest, std::move(lock), base,
        added_layers(image, base_layer_count(store.layout(), image.manifest, base, shown)) };
}

} // namespace dlenv::workflow
