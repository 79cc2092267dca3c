#include "build/layer_plan.h"

#include "core/canonical_json.h"
#include "core/error.h"
#include "core/sha256.h"
#include "oci/layer_writer.h"

#include <set>

namespace dlenv::build {
namespace {

// Adds the directories above `path` that are not in the layer yet.
void add_parents(std::vector<oci::LayerEntry>& entries, std::set<std::string>& directories, const std::string& path)
{
    for (std::size_t slash = path.find('/'); slash != std::string::npos; slash = path.find('/', slash + 1)) {
        std::string parent = path.substr(0, slash);
        if (directories.insert(parent).second)
            entries.push_back({parent, oci::LayerEntry::Type::directory, 0755, {}, {}, 0, {}, {}});
    }
}

void check_locked_content(const std::filesystem::path& source, const lock::LockedFile& file, const std::string& where)
{
    std::string actual;
    try {
        actual = sha256_file_hex(source);
    } catch (const Error& e) {
        throw Error(ErrorCode::invalid_input, where + ": " + e.message(),
                    "the path is relative to the lockfile's directory; restore the file or run `dlenv lock` again");
    }
    if (actual != file.sha256)
        throw Error(ErrorCode::invalid_input,
                    where + ": " + source.string() + " changed since the lock was written (sha256 " + actual +
                        ", locked " + file.sha256 + ")",
                    "run `dlenv lock` again to pin the new contents");
}

// Everything that decides a layer's bytes: the writer's and compressor's formats, the
// epoch, and each entry with the digest of its content.
std::string cache_key(const std::vector<oci::LayerEntry>& entries, std::int64_t epoch, oci::Compression compression)
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto& entry : entries)
        list.push_back({{"path", entry.path},
                        {"type", static_cast<int>(entry.type)},
                        {"mode", entry.mode},
                        {"content", entry.source.empty() ? sha256_hex(entry.contents) : entry.sha256},
                        {"link", entry.link_target}});
    return sha256_hex(to_canonical_json({{"format", std::string(oci::layer_format(compression))},
                                         {"source_date_epoch", epoch},
                                         {"entries", list}}));
}

PlannedLayer files_layer(const lock::Lockfile& lock, const lock::ImageSection& image, oci::Compression compression)
{
    PlannedLayer layer{"dlenv build: files pinned by the lock", {}, {}};
    std::set<std::string> directories;
    std::filesystem::path lock_dir = std::filesystem::path(lock.file()).parent_path();
    for (std::size_t i = 0; i < image.files.size(); ++i) {
        const lock::LockedFile& file = image.files[i];
        std::filesystem::path source = lock_dir / file.source;
        check_locked_content(source, file, lock.file() + ": image.files[" + std::to_string(i) + "]");
        std::string path = file.target.substr(1);
        add_parents(layer.entries, directories, path);
        layer.entries.push_back({path, oci::LayerEntry::Type::file, file.mode, source, {}, file.size, {}, file.sha256});
    }
    layer.cache_key = cache_key(layer.entries, image.source_date_epoch, compression);
    return layer;
}

PlannedLayer kit_layer(const lock::Lockfile& lock, std::int64_t epoch, oci::Compression compression)
{
    PlannedLayer layer{"dlenv build: validation kit in /opt/dlenv", {}, {}};
    std::string text = lock.text();
    layer.entries = {
        {"opt", oci::LayerEntry::Type::directory, 0755, {}, {}, 0, {}, {}},
        {"opt/dlenv", oci::LayerEntry::Type::directory, 0755, {}, {}, 0, {}, {}},
        {"opt/dlenv/dlenv.lock.json", oci::LayerEntry::Type::file, 0644, {}, text,
         static_cast<std::int64_t>(text.size()), {}, {}},
    };
    layer.cache_key = cache_key(layer.entries, epoch, compression);
    return layer;
}

} // namespace

std::vector<PlannedLayer> plan_layers(const lock::Lockfile& lock, oci::Compression compression)
{
    lock::ImageSection image = lock.image();
    std::vector<PlannedLayer> layers;
    if (!image.files.empty())
        layers.push_back(files_layer(lock, image, compression));
    layers.push_back(kit_layer(lock, image.source_date_epoch, compression));
    return layers;
}

} // namespace dlenv::build
