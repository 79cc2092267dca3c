#include "rootfs/root_dir.h"

#include "core/error.h"
#include "core/file.h"
#include "rootfs/path.h"

#include <cerrno>
#include <cstring>
#include <deque>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dlenv::rootfs {
namespace {

UniqueFd duplicate(int fd)
{
    return UniqueFd(::fcntl(fd, F_DUPFD_CLOEXEC, 0));
}

UniqueFd open_directory_at(int dir, const std::string& name)
{
    return UniqueFd(::openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
}

std::vector<std::string> names_in(int dir)
{
    std::vector<std::string> names;
    DIR* stream = ::fdopendir(duplicate(dir).release());
    if (!stream)
        return names;
    ::rewinddir(stream);
    while (const dirent* entry = ::readdir(stream)) {
        std::string_view name = entry->d_name;
        if (name != "." && name != "..")
            names.emplace_back(name);
    }
    ::closedir(stream);
    return names;
}

void remove_at(int dir, const std::string& name, const std::filesystem::path& shown)
{
    struct stat st { };
    if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT)
            return;
        throw io_error("inspect", shown);
    }
    if (S_ISDIR(st.st_mode)) {
        UniqueFd sub = open_directory_at(dir, name);
        if (sub.get() < 0)
            throw io_error("open directory", shown);
        for (const auto& child : names_in(sub.get()))
            remove_at(sub.get(), child, shown / child);
    }
    if (::unlinkat(dir, name.c_str(), S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0) != 0)
        throw io_error("remove", shown);
}

} // namespace

Error unsafe_entry(std::string_view path, const std::string& why)
{
    return Error(ErrorCode::invalid_input, std::string(path) + ": " + why,
        "the image is unsafe to unpack: rebuild it, or take it from a source you trust");
}

RootDir::RootDir(const std::filesystem::path& root)
    : m_root(root)
    , m_fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC))
{
    if (m_fd.get() < 0)
        throw io_error("open directory", root);
}

RootDir::Parent RootDir::parent_of(std::string_view path, bool create) const
{
    std::deque<std::string> todo;
    push_front_components(todo, path);
    if (todo.empty())
        throw unsafe_entry(path, "names the root itself");
    std::string name = todo.back();
    todo.pop_back();
    std::vector<std::string> at; // the real directories walked so far, to walk back on ".."
    UniqueFd dir = duplicate(m_fd.get());
    int links = 0;
    while (!todo.empty()) {
        std::string part = todo.front();
        todo.pop_front();
        if (part == "..") {
            if (at.empty())
                throw unsafe_entry(path, "goes through a symbolic link that leads out of the root");
            at.pop_back();
            dir = duplicate(m_fd.get());
            for (const auto& step : at)
                dir = open_directory_at(dir.get(), step);
            continue;
        }
        struct stat st { };
        if (::fstatat(dir.get(), part.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno != ENOENT)
                throw io_error("inspect", m_root / path);
            if (!create)
                return { UniqueFd(), name };
            if (::mkdirat(dir.get(), part.c_str(), 0755) != 0)
                throw io_error("create directory", m_root / path);
        } else if (S_ISLNK(st.st_mode)) {
            std::string target(static_cast<std::size_t>(st.st_size) + 1, '\0');
            ssize_t n = ::readlinkat(dir.get(), part.c_str(), target.data(), target.size());
            if (n < 0)
                throw io_error("read symbolic link in", m_root / path);
            target.resize(static_cast<std::size_t>(n));
            if (target.starts_with('/'))
                throw unsafe_entry(
                    path, "goes through the symbolic link " + part + " -> " + target + ", which leads out of the root");
            if (++links > k_max_links)
                throw unsafe_entry(path, "goes through too many symbolic links");
            push_front_components(todo, target);
            continue;
        } else if (!S_ISDIR(st.st_mode)) {
            throw unsafe_entry(path, part + " is not a directory");
        }
        dir = open_directory_at(dir.get(), part);
        if (dir.get() < 0)
            throw io_error("open directory", m_root / path);
        at.push_back(part);
    }
    return { std::move(dir), name };
}

UniqueFd RootDir::open_directory(std::string_view path) const
{
    if (split_path(path).empty())
        return duplicate(m_fd.get());
    Parent at = parent_of(path, false);
    if (at.dir.get() < 0)
        return UniqueFd();
    return open_directory_at(at.dir.get(), at.name);
}

void RootDir::clear(const Parent& at, std::string_view path) const
{
    remove_at(at.dir.get(), at.name, m_root / path);
}

UniqueFd RootDir::create_file(std::string_view path) const
{
    Parent at = parent_of(path, true);
    clear(at, path);
    UniqueFd fd(::openat(at.dir.get(), at.name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (fd.get() < 0)
        throw io_error("create file", m_root / path);
    return fd;
}

void RootDir::make_directory(std::string_view path) const
{
    Parent at = parent_of(path, true);
    struct stat st { };
    if (::fstatat(at.dir.get(), at.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
        return;
    clear(at, path);
    if (::mkdirat(at.dir.get(), at.name.c_str(), 0700) != 0)
        throw io_error("create directory", m_root / path);
}

void RootDir::make_symlink(std::string_view path, const std::string& target) const
{
    std::size_t slash = path.find_last_of('/');
    std::string_view parent = slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
    if (!target.starts_with('/') && !normalize_path(std::string(parent) + "/" + target))
        throw unsafe_entry(path, "symbolic link to " + target + " leads out of the root");
    Parent at = parent_of(path, true);
    clear(at, path);
    if (::symlinkat(target.c_str(), at.dir.get(), at.name.c_str()) != 0)
        throw io_error("create symbolic link", m_root / path);
}

void RootDir::make_hardlink(std::string_view path, std::string_view target) const
{
    Parent from = parent_of(target, false);
    struct stat st { };
    if (from.dir.get() < 0 || ::fstatat(from.dir.get(), from.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
        throw unsafe_entry(path, "hard link to " + std::string(target) + ", which does not exist");
    if (S_ISDIR(st.st_mode))
        throw unsafe_entry(path, "hard link to the directory " + std::string(target));
    Parent at = parent_of(path, true);
    clear(at, path);
    if (::linkat(from.dir.get(), from.name.c_str(), at.dir.get(), at.name.c_str(), 0) != 0)
        throw io_error("create hard link", m_root / path);
}

void RootDir::set_metadata(std::string_view path, std::uint32_t mode, std::int64_t mtime) const
{
    Parent at = parent_of(path, false);
    struct stat st { };
    if (at.dir.get() < 0 || ::fstatat(at.dir.get(), at.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
        throw io_error("inspect", m_root / path);
    // Linux has no chmod for a symbolic link itself, and its mode means nothing.
    if (!S_ISLNK(st.st_mode) && ::fchmodat(at.dir.get(), at.name.c_str(), static_cast<mode_t>(mode & 07777), 0) != 0)
        throw io_error("set the mode of", m_root / path);
    const timespec times[2] = { { static_cast<time_t>(mtime), 0 }, { static_cast<time_t>(mtime), 0 } };
    if (::utimensat(at.dir.get(), at.name.c_str(), times, AT_SYMLINK_NOFOLLOW) != 0)
        throw io_error("set the time of", m_root / path);
}

void RootDir::remove(std::string_view path) const
{
    Parent at = parent_of(path, false);
    if (at.dir.get() >= 0)
        clear(at, path);
}

bool RootDir::is_directory(std::string_view path) const
{
    return open_directory(path).get() >= 0;
}

std::vector<std::string> RootDir::children(std::string_view path) const
{
    UniqueFd dir = open_directory(path);
    return dir.get() < 0 ? std::vector<std::string>() : names_in(dir.get());
}

} // namespace dlenv::rootfs
