#include "workflow/built_image.h"

#include "core/error.h"
#include "oci/layer_index.h"
#include "rootfs/dlenv_files.h"

namespace dlenv::workflow {
namespace {

constexpr const char* k_lock_annotation = "dev.dlenv.lock.digest";
constexpr const char* k_base_annotation = "org.opencontainers.image.base.digest";
constexpr std::int64_t k_max_lock_bytes = 64 << 20;

lock::Lockfile image_lock(const oci::ImageLayout& layout, const verify::StoredImage& image, const std::string& shown)
{
    const std::string path = std::string(rootfs::k_lock_file).substr(1);
    std::map<std::string, std::string> files
        = oci::read_layer_files(layout, image.manifest.layers, { path }, k_max_lock_bytes);
    auto found = files.find(path);
    if (found == files.end())
        throw Error(ErrorCode::invalid_input, shown + " holds no " + std::string(rootfs::k_lock_file),
            "name an image `dlenv build` made");
    lock::Lockfile lock = lock::Lockfile::parse(shown + ":" + std::string(rootfs::k_lock_file), found->second);
    auto annotation = image.manifest.annotations.find(k_lock_annotation);
    if (annotation == image.manifest.annotations.end() || annotation->second != lock.digest().text())
        throw Error(ErrorCode::invalid_input,
            shown + ": " + std::string(rootfs::k_lock_file) + " is lock " + lock.digest().text()
                + ", not the lock its manifest's " + k_lock_annotation + " names",
            "build the image again with `dlenv build`");
    return lock;
}

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

} // namespace

BuiltImage read_built_image(const store::Store& store, const oci::Descriptor& descriptor, const std::string& shown)
{
    verify::StoredImage image = verify::read_image(store.layout(), descriptor);
    lock::Lockfile lock = image_lock(store.layout(), image, shown);
    std::optional<Digest> base = base_manifest(image.manifest, shown);
    return { std::move(image), std::move(lock), base };
}

std::vector<std::string> layer_history(const verify::StoredImage& image)
{
    std::vector<std::string> created_by;
    const nlohmann::json* history = image.config.contains("history") ? &image.config["history"] : nullptr;
    if (history && history->is_array())
        for (const auto& entry : *history)
            if (entry.is_object() && !entry.value("empty_layer", false)) {
                const auto* said = entry.contains("created_by") ? &entry["created_by"] : nullptr;
                created_by.push_back(said && said->is_string() ? said->get<std::string>() : "");
            }
    std::size_t count = image.manifest.layers.size();
    std::vector<std::string> out(count);
    for (std::size_t from_top = 1; from_top <= count && from_top <= created_by.size(); ++from_top)
        out[count - from_top] = created_by[created_by.size() - from_top];
    return out;
}

oci::Descriptor find_tag(const store::Store& store, const std::string& name, const std::string& tag)
{
    const store::ImageRecord& record = store.records().at(name);
    auto found = record.tags.find(tag);
    if (found == record.tags.end())
        throw Error(
            ErrorCode::not_found, name + " has no tag \"" + tag + "\"", "`dlenv images` lists the tags of each image");
    return found->second;
}

oci::Descriptor find_digest(const store::Store& store, const std::string& name, const Digest& digest)
{
    const store::ImageRecord& record = store.records().at(name);
    for (const auto& [tag, descriptor] : record.tags)
        if (descriptor.digest == digest)
            return descriptor;
    for (const auto& entry : record.history)
        if (entry.image.digest == digest)
            return entry.image;
    throw Error(ErrorCode::not_found, name + " has no image " + digest.text(),
        "`dlenv history " + name + "` lists the images it had");
}

} // namespace dlenv::workflow
