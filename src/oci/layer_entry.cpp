#include "oci/layer_entry.h"

#include "core/error.h"
#include "core/file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace dlenv::oci {
namespace {

namespace fs = std::filesystem;

struct Found {
    LayerEntry entry;
    dev_t device = 0;
    ino_t inode = 0;
    bool shared_inode = false; // a regular file with more than one link
};

std::string_view special_kind(mode_t mode)
{
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISFIFO(mode))
        return "a fifo";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a file, directory or symlink";
}

std::string read_link(const fs::path& path, std::size_t size)
{
    // lstat's size is a hint only: /proc-like links report 0, and a link can be replaced.
    std::string target(std::max<std::size_t>(size, 255) + 1, '\0');
    for (;;) {
        ssize_t n = ::readlink(path.c_str(), target.data(), target.size());
        if (n < 0)
            throw io_error("read link", path);
        if (static_cast<std::size_t>(n) < target.size()) {
            target.resize(static_cast<std::size_t>(n));
            return target;
        }
        target.resize(target.size() * 2);
    }
}

void walk(const fs::path& dir, const std::string& image_dir, std::vector<Found>& out)
{
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec)
        throw Error(ErrorCode::io, "read directory " + dir.string() + ": " + ec.message());
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        fs::path path = it->path();
        struct stat st { };
        if (::lstat(path.c_str(), &st) != 0)
            throw io_error("stat", path);
        std::string name = path.filename().string();
        Found found;
        found.entry.path = image_dir.empty() ? name : image_dir + "/" + name;
        found.entry.mode = st.st_mode & 07777;
        if (S_ISDIR(st.st_mode)) {
            found.entry.type = LayerEntry::Type::directory;
            std::string child_dir = found.entry.path;
            out.push_back(std::move(found));
            walk(path, child_dir, out);
            continue;
        }
        if (S_ISREG(st.st_mode)) {
            found.entry.type = LayerEntry::Type::file;
            found.entry.source = path;
            found.entry.size = st.st_size;
            found.device = st.st_dev;
            found.inode = st.st_ino;
            found.shared_inode = st.st_nlink > 1;
        } else if (S_ISLNK(st.st_mode)) {
            found.entry.type = LayerEntry::Type::symlink;
            found.entry.link_target = read_link(path, static_cast<std::size_t>(st.st_size));
        } else {
            throw Error(ErrorCode::invalid_input,
                path.string() + " is " + std::string(special_kind(st.st_mode)) + ", which dlenv does not put in layers",
                "remove it from the tree, or create it when the container starts");
        }
        out.push_back(std::move(found));
    }
    if (ec)
        throw Error(ErrorCode::io, "read directory " + dir.string() + ": " + ec.message());
}

} // namespace

std::vector<LayerEntry> entries_of_directory(const std::filesystem::path& root, const std::string& prefix)
{
    std::vector<Found> found;
    walk(root, prefix, found);
    // Byte order of whole paths puts every directory before what it holds, and makes the
    // order independent of readdir, which differs between copies of the same tree.
    std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.entry.path < b.entry.path; });

    std::map<std::pair<dev_t, ino_t>, std::string> first_path;
    std::vector<LayerEntry> entries;
    entries.reserve(found.size());
    for (Found& f : found) {
        if (f.shared_inode) {
            auto [it, inserted] = first_path.try_emplace({ f.device, f.inode }, f.entry.path);
            if (!inserted) {
                f.entry.type = LayerEntry::Type::hardlink;
                f.entry.link_target = it->second;
                f.entry.source.clear();
                f.entry.size = 0;
            }
        }
        entries.push_back(std::move(f.entry));
    }
    return entries;
}

} // namespace dlenv::oci
