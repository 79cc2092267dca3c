#include "oci/layer_index.h"

#include "core/error.h"
#include "oci/layer_stream.h"
#include "rootfs/path.h"

#include <algorithm>
#include <string_view>

namespace dlenv::oci {
namespace {

constexpr std::string_view k_whiteout_prefix = ".wh.";
constexpr std::string_view k_opaque = ".wh..wh..opq";

// Removes `path` and everything below it; `path` "" is the root, so everything.
void remove_tree(std::map<std::string, TarEntry>& index, const std::string& path, bool itself)
{
    if (itself)
        index.erase(path);
    std::string below = path.empty() ? "" : path + "/";
    for (auto it = index.lower_bound(below); it != index.end() && it->first.starts_with(below);)
        it = index.erase(it);
}

// One layer's entries and whiteouts. Whiteouts hide only lower layers' files, whatever
// their order in the stream, so they are applied before the layer's own entries.
void index_layer(
    TarReader& tar, std::map<std::string, TarEntry>& index, const std::function<bool(const std::string&)>& keep)
{
    std::vector<std::pair<std::string, bool>> hidden; // path, and whether the path itself goes
    std::vector<TarEntry> written;
    while (auto entry = tar.next()) {
        std::vector<std::string> parts = rootfs::split_path(entry->path);
        if (parts.empty() || std::find(parts.begin(), parts.end(), "..") != parts.end())
            continue;
        std::string name = parts.back();
        parts.pop_back();
        std::string parent = rootfs::join_path(parts);
        if (name == k_opaque)
            hidden.emplace_back(parent, false);
        else if (name.starts_with(k_whiteout_prefix))
            hidden.emplace_back(parent.empty() ? name.substr(k_whiteout_prefix.size())
                                               : parent + "/" + name.substr(k_whiteout_prefix.size()),
                true);
        else {
            entry->path = parent.empty() ? name : parent + "/" + name;
            written.push_back(std::move(*entry));
        }
    }
    for (const auto& [path, itself] : hidden)
        remove_tree(index, path, itself);
    for (auto& entry : written) {
        if (entry.type != TarEntry::Type::directory)
            remove_tree(index, entry.path, false);
        if (keep(entry.path))
            index[entry.path] = std::move(entry);
    }
}

} // namespace

std::map<std::string, TarEntry> index_layers(const ImageLayout& layout, const std::vector<Descriptor>& layers,
    const std::function<bool(const std::string& path)>& keep)
{
    std::map<std::string, TarEntry> index;
    for (const auto& layer : layers)
        read_layer_tar(layout.blob_path(layer.digest), layer, "read layer " + layer.digest.text(),
            [&](TarReader& tar) { index_layer(tar, index, keep); });
    return index;
}

} // namespace dlenv::oci
