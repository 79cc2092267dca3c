#include "oci/layer_index.h"

#include "core/error.h"
#include "oci/layer_stream.h"
#include "rootfs/path.h"

#include <algorithm>
#include <optional>
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

// Whether `path` is `hidden` or below it ("" hides everything).
bool under(const std::string& path, const std::string& hidden)
{
    return hidden.empty() || path == hidden || path.starts_with(hidden + "/");
}

// One layer's effect on the files read_layer_files keeps: whiteouts first, as above.
void read_files_of_layer(TarReader& tar, std::map<std::string, std::string>& files, const std::set<std::string>& paths,
    std::int64_t max_size, const std::string& layer)
{
    std::vector<std::string> hidden;
    std::map<std::string, std::optional<std::string>> written; // nullopt: not a regular file
    while (auto entry = tar.next()) {
        std::optional<std::string> normal = rootfs::normalize_path(entry->path);
        if (!normal || rootfs::relative_path(*normal).empty())
            continue;
        std::string path = rootfs::relative_path(*normal);
        std::string name = path.substr(path.find_last_of('/') + 1);
        std::string parent = path.size() > name.size() ? path.substr(0, path.size() - name.size() - 1) : "";
        if (name == k_opaque) {
            hidden.push_back(parent.empty() ? "" : parent);
            continue;
        }
        if (name.starts_with(k_whiteout_prefix)) {
            std::string target = name.substr(k_whiteout_prefix.size());
            hidden.push_back(parent.empty() ? target : parent + "/" + target);
            continue;
        }
        if (entry->type != TarEntry::Type::directory)
            for (const auto& kept : paths)
                if (kept.starts_with(path + "/"))
                    written[kept] = std::nullopt; // a file or link over a directory hides what was below
        if (!paths.contains(path))
            continue;
        if (entry->type != TarEntry::Type::file) {
            written[path] = std::nullopt;
            continue;
        }
        if (entry->size > max_size)
            throw Error(ErrorCode::invalid_input,
                layer + ": /" + path + " is " + std::to_string(entry->size) + " bytes, more than the "
                    + std::to_string(max_size) + " dlenv reads of it");
        std::string contents;
        for (std::string_view piece = tar.read_data(); !piece.empty(); piece = tar.read_data())
            contents.append(piece);
        written[path] = std::move(contents);
    }
    for (const auto& gone : hidden)
        for (auto it = files.begin(); it != files.end();)
            it = under(it->first, gone) ? files.erase(it) : std::next(it);
    for (auto& [path, contents] : written) {
        if (contents)
            files[path] = std::move(*contents);
        else
            files.erase(path);
    }
}

} // namespace

std::map<std::string, std::string> read_layer_files(const ImageLayout& layout, const std::vector<Descriptor>& layers,
    const std::set<std::string>& paths, std::int64_t max_size)
{
    std::map<std::string, std::string> files;
    for (const auto& layer : layers) {
        std::string context = "read layer " + layer.digest.text();
        read_layer_tar(layout.blob_path(layer.digest), layer, context,
            [&](TarReader& tar) { read_files_of_layer(tar, files, paths, max_size, context); });
    }
    return files;
}

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
