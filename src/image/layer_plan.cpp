#include "image/layer_plan.h"

#include "core/canonical_json.h"
#include "core/error.h"
#include "core/sha256.h"
#include "image/file_source.h"
#include "image/kit.h"
#include "image/runtime_layer.h"
#include "oci/layer_writer.h"
#include "rootfs/dlenv_files.h"
#include "rootfs/path.h"

namespace dlenv::image {
namespace {

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
            where + ": " + source.string() + " changed since the lock was written (sha256 " + actual + ", locked "
                + file.sha256 + ")",
            "run `dlenv lock` again to pin the new contents");
}

// A layer whose entries are known when it is planned: the key lists each entry with the
// digest of its content.
PlannedLayer listed_layer(std::string name, std::string created_by, std::vector<oci::LayerEntry> entries,
    std::int64_t epoch, oci::Compression compression)
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto& entry : entries)
        list.push_back({ { "path", entry.path }, { "type", static_cast<int>(entry.type) }, { "mode", entry.mode },
            { "content", entry.source.empty() ? sha256_hex(entry.contents) : entry.sha256 },
            { "link", entry.link_target } });
    return { std::move(name), std::move(created_by), layer_cache_key({ { "entries", list } }, epoch, compression),
        [entries = std::move(entries)](const store::Store&, const std::filesystem::path&) { return entries; } };
}

PlannedLayer files_layer(const lock::Lockfile& lock, const lock::ImageSection& image, oci::Compression compression)
{
    std::vector<oci::LayerEntry> entries;
    std::set<std::string> directories;
    for (std::size_t i = 0; i < image.files.size(); ++i) {
        const lock::LockedFile& file = image.files[i];
        std::filesystem::path source = file_source(lock, i, file);
        check_locked_content(source, file, lock.file() + ": image.files[" + std::to_string(i) + "]");
        std::string path = file.target.substr(1);
        add_parents(entries, directories, path);
        entries.push_back({ path, oci::LayerEntry::Type::file, file.mode, source, {}, file.size, {}, file.sha256 });
    }
    return listed_layer("files layer", "dlenv build: files pinned by the lock", std::move(entries),
        image.source_date_epoch, compression);
}

PlannedLayer kit_layer(const lock::Lockfile& lock, std::int64_t epoch, oci::Compression compression)
{
    std::vector<oci::LayerEntry> entries;
    std::set<std::string> directories;
    auto add_file = [&](const std::string& path, std::string contents) {
        add_parents(entries, directories, path);
        auto size = static_cast<std::int64_t>(contents.size());
        entries.push_back({ path, oci::LayerEntry::Type::file, 0644, {}, std::move(contents), size, {}, {} });
    };
    add_file(rootfs::relative_path(rootfs::k_lock_file), lock.text());
    std::string kit_dir = rootfs::relative_path(rootfs::k_kit_dir);
    for (const auto& file : embedded_kit())
        add_file(kit_dir + "/" + std::string(file.name), std::string(file.contents));
    return listed_layer("validation kit layer", "dlenv build: validation kit in " + std::string(rootfs::k_dlenv_dir),
        std::move(entries), epoch, compression);
}

} // namespace

std::string layer_cache_key(const nlohmann::json& inputs, std::int64_t epoch, oci::Compression compression)
{
    nlohmann::json key = inputs;
    key["format"] = std::string(oci::layer_format(compression));
    key["source_date_epoch"] = epoch;
    return sha256_hex(to_canonical_json(key));
}

void add_parents(std::vector<oci::LayerEntry>& entries, std::set<std::string>& directories, const std::string& path)
{
    for (std::size_t slash = path.find('/'); slash != std::string::npos; slash = path.find('/', slash + 1)) {
        std::string parent = path.substr(0, slash);
        if (directories.insert(parent).second)
            entries.push_back({ parent, oci::LayerEntry::Type::directory, 0755, {}, {}, 0, {}, {} });
    }
}

std::vector<PlannedLayer> plan_layers(const lock::Lockfile& lock, oci::Compression compression)
{
    const lock::ImageSection& image = lock.image();
    std::vector<PlannedLayer> layers;
    if (auto runtime = runtime_layer(lock, image.source_date_epoch, compression))
        layers.push_back(std::move(*runtime));
    if (!image.files.empty())
        layers.push_back(files_layer(lock, image, compression));
    layers.push_back(kit_layer(lock, image.source_date_epoch, compression));
    return layers;
}

} // namespace dlenv::image
