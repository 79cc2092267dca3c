#include "oci/layer_reader.h"

#include "core/error.h"
#include "core/file.h"
#include "oci/layer_stream.h"
#include "oci/tar_reader.h"
#include "rootfs/path.h"
#include "rootfs/root_dir.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

namespace dlenv::oci {
namespace {

constexpr std::string_view k_whiteout_prefix = ".wh.";
constexpr std::string_view k_opaque = ".wh..wh..opq";

// The entry's path with "." and empty components dropped; "" is the root itself.
std::string clean_path(const std::string& path)
{
    if (path.starts_with('/'))
        throw rootfs::unsafe_entry(path, "absolute path");
    std::vector<std::string> parts = rootfs::split_path(path);
    if (std::find(parts.begin(), parts.end(), "..") != parts.end())
        throw rootfs::unsafe_entry(path, "path has a \"..\" component");
    return rootfs::join_path(parts);
}

std::string join(const std::string& dir, std::string_view name)
{
    return dir.empty() ? std::string(name) : dir + "/" + std::string(name);
}

// Unpacks the entries of one layer in stream order onto what lower layers left.
class Unpacker {
public:
    explicit Unpacker(const std::filesystem::path& root)
        : m_root(root)
    {
    }

    void apply(const TarEntry& entry, TarReader& tar)
    {
        std::string path = clean_path(entry.path);
        if (path.empty() && entry.type == TarEntry::Type::directory)
            return; // the root's own mode and time belong to whoever made the directory
        if (path.empty())
            throw rootfs::unsafe_entry(entry.path, "names the root as a non-directory");
        std::size_t slash = path.find_last_of('/');
        std::string parent = slash == std::string::npos ? "" : path.substr(0, slash);
        std::string_view name = std::string_view(path).substr(slash == std::string::npos ? 0 : slash + 1);
        if (name.starts_with(k_whiteout_prefix))
            return whiteout(path, parent, name);

        for (std::size_t at = path.find('/'); at != std::string::npos; at = path.find('/', at + 1))
            m_written.insert(path.substr(0, at));
        m_written.insert(path);
        switch (entry.type) {
        case TarEntry::Type::file:
            return write_file(path, entry, tar);
        case TarEntry::Type::directory:
            m_root.make_directory(path);
            // Set last: a read-only directory must still take its children, and
            // creating them would move its time.
            m_directories.push_back(entry);
            m_directories.back().path = path;
            return;
        case TarEntry::Type::symlink:
            m_root.make_symlink(path, entry.link_target);
            return m_root.set_metadata(path, entry.mode, entry.mtime);
        case TarEntry::Type::hardlink:
            return m_root.make_hardlink(path, link_target(path, entry.link_target));
        case TarEntry::Type::other:
            throw rootfs::unsafe_entry(path, "device nodes, fifos and sockets are not unpacked");
        }
    }

    void finish()
    {
        for (auto it = m_directories.rbegin(); it != m_directories.rend(); ++it)
            m_root.set_metadata(it->path, it->mode, it->mtime);
    }

private:
    void write_file(const std::string& path, const TarEntry& entry, TarReader& tar)
    {
        {
            UniqueFd fd = m_root.create_file(path);
            for (std::string_view piece = tar.read_data(); !piece.empty(); piece = tar.read_data())
                write_all(fd.get(), piece, path);
        }
        m_root.set_metadata(path, entry.mode, entry.mtime);
    }

    static std::string link_target(const std::string& path, const std::string& target)
    {
        try {
            return clean_path(target);
        } catch (const Error&) {
            throw rootfs::unsafe_entry(path, "hard link to " + target + " leads out of the root");
        }
    }

    void whiteout(const std::string& path, const std::string& parent, std::string_view name)
    {
        if (name == k_opaque) {
            for (const auto& child : m_root.children(parent))
                remove_lower(join(parent, child));
            return;
        }
        std::string_view hidden = name.substr(k_whiteout_prefix.size());
        if (hidden.empty() || hidden == "." || hidden == "..")
            throw rootfs::unsafe_entry(path, "whiteout names no file");
        remove_lower(join(parent, hidden));
    }

    // A whiteout hides what lower layers left, never what this layer wrote: the spec
    // asks for whiteouts before their siblings, but not every writer obeys.
    void remove_lower(const std::string& path)
    {
        if (!m_written.contains(path))
            return m_root.remove(path);
        if (m_root.is_directory(path))
            for (const auto& child : m_root.children(path))
                remove_lower(join(path, child));
    }

    rootfs::RootDir m_root;
    std::set<std::string> m_written; // this layer's paths and their parents
    std::vector<TarEntry> m_directories;
};

} // namespace

void apply_layer(const ImageLayout& layout, const Descriptor& layer, const std::filesystem::path& root)
{
    const std::string context = "apply layer " + layer.digest.text();
    Unpacker unpacker(root);
    read_layer_tar(layout.blob_path(layer.digest), layer, context, [&](TarReader& tar) {
        while (auto entry = tar.next())
            unpacker.apply(*entry, tar);
    });
    // Directory metadata last, once the blob is proven: their files are written by now.
    try {
        unpacker.finish();
    } catch (const Error& e) {
        throw e.with_context(context);
    }
}

} // namespace dlenv::oci
