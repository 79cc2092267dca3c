#include "build/layer_plan.h"

#include "core/canonical_json.h"
#include "core/error.h"
#include "core/file.h"
#include "core/sha256.h"

#include <set>

namespace dlenv::build {
namespace {

// Changes whenever the layer writer's output for equal entries would change.
constexpr std::string_view k_layer_format = "dlenv.layer/v1";

// Adds the directories above `path` that are not in the layer yet.
void add_parents(std::vector<oci::LayerEntry>& entries, std::set<std::string>& directories, const std::string& path)
{
    for (std::size_t slash = path.find('/'); slash != std::string::npos; slash = path.find('/', slash + 1)) {
        std::string parent = path.substr(0, slash);
        if (directories.insert(parent).second)
            entries.push_back({parent, oci::LayerEntry::Type::directory, 0755, {}, {}, 0, {}});
    }
}

std::string verified_sha256(const std::filesystem::path& source, const nlohmann::json& file, const std::string& where)
{
    std::string bytes;
    try {
        bytes = read_file(source);
    } catch (const Error& e) {
        throw Error(ErrorCode::invalid_input, where + ": " + e.message(),
                    "the path is relative to the lockfile's directory; restore the file or run `dlenv lock` again");
    }
    std::string actual = sha256_hex(bytes);
    if (actual != file.at("sha256").get<std::string>())
        throw Error(ErrorCode::invalid_input,
                    where + ": " + source.string() + " changed since the lock was written (sha256 " + actual +
                        ", locked " + file.at("sha256").get<std::string>() + ")",
                    "run `dlenv lock` again to pin the new contents");
    return actual;
}

std::string cache_key(const std::vector<oci::LayerEntry>& entries, const std::vector<std::string>& content_digests,
                      std::int64_t epoch, oci::Compression compression)
{
    nlohmann::json list = nlohmann::json::array();
    for (std::size_t i = 0; i < entries.size(); ++i)
        list.push_back({{"path", entries[i].path},
                        {"type", static_cast<int>(entries[i].type)},
                        {"mode", entries[i].mode},
                        {"content", content_digests[i]},
                        {"link", entries[i].link_target}});
    return sha256_hex(to_canonical_json({{"format", k_layer_format},
                                         {"compression", std::string(oci::to_string(compression))},
                                         {"source_date_epoch", epoch},
                                         {"entries", list}}));
}

PlannedLayer files_layer(const lock::Lockfile& lock, const std::filesystem::path& lock_path, std::int64_t epoch,
                         oci::Compression compression)
{
    PlannedLayer layer{"dlenv build: files pinned by the lock", {}, {}};
    std::set<std::string> directories;
    std::vector<std::string> digests;
    const nlohmann::json& files = lock.json().at("image").at("files");
    for (std::size_t i = 0; i < files.size(); ++i) {
        const nlohmann::json& file = files[i];
        std::string where = lock_path.string() + ": image.files[" + std::to_string(i) + "]";
        std::filesystem::path source = lock_path.parent_path() / file.at("source").get<std::string>();
        std::string path = file.at("target").get<std::string>().substr(1);
        add_parents(layer.entries, directories, path);
        digests.resize(layer.entries.size(), "");
        digests.push_back(verified_sha256(source, file, where));
        layer.entries.push_back({path, oci::LayerEntry::Type::file,
                                 static_cast<std::uint32_t>(std::stoul(file.at("mode").get<std::string>(), nullptr, 8)),
                                 source, {}, file.at("size").get<std::int64_t>(), {}});
    }
    layer.cache_key = cache_key(layer.entries, digests, epoch, compression);
    return layer;
}

PlannedLayer kit_layer(const lock::Lockfile& lock, std::int64_t epoch, oci::Compression compression)
{
    PlannedLayer layer{"dlenv build: validation kit in /opt/dlenv", {}, {}};
    std::string text = lock.text();
    layer.entries = {
        {"opt", oci::LayerEntry::Type::directory, 0755, {}, {}, 0, {}},
        {"opt/dlenv", oci::LayerEntry::Type::directory, 0755, {}, {}, 0, {}},
        {"opt/dlenv/dlenv.lock.json", oci::LayerEntry::Type::file, 0644, {}, text,
         static_cast<std::int64_t>(text.size()), {}},
    };
    layer.cache_key = cache_key(layer.entries, {"", "", sha256_hex(text)}, epoch, compression);
    return layer;
}

} // namespace

std::vector<PlannedLayer> plan_layers(const lock::Lockfile& lock, const std::filesystem::path& lock_path,
                                      oci::Compression compression)
{
    std::int64_t epoch = lock.json().at("image").at("source_date_epoch").get<std::int64_t>();
    std::vector<PlannedLayer> layers;
    if (!lock.json().at("image").at("files").empty())
        layers.push_back(files_layer(lock, lock_path, epoch, compression));
    layers.push_back(kit_layer(lock, epoch, compression));
    return layers;
}

} // namespace dlenv::build
