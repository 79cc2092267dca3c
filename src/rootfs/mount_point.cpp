#include "rootfs/mount_point.h"

#include "core/error.h"
#include "core/file.h"
#include "rootfs/path.h"

#include <cerrno>
#include <climits>
#include <deque>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace dlenv::rootfs {
namespace {

std::string joined(const std::vector<std::string>& components)
{
    return "/" + join_path(components);
}

Error not_mountable(std::string_view path, const std::string& why)
{
    return Error(ErrorCode::invalid_input, "the image's " + std::string(path) + " cannot take a mount: " + why,
        "fix the image: a container needs that path to be a directory or a file inside the image");
}

UniqueFd open_directory(int parent, const std::string& name)
{
    return UniqueFd(::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
}

// One walk down from `root`: a descriptor for each directory on the way, so that `..`
// returns to the parent it came from and no component is looked up by a host path.
class Walk {
public:
    Walk(const std::filesystem::path& root, std::string_view path)
        : m_root(root)
        , m_path(path)
    {
        UniqueFd fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        if (fd.get() < 0)
            throw io_error("open", root);
        m_dirs.push_back(std::move(fd));
        push_front_components(m_pending, path);
    }

    std::string run(MountPointKind kind)
    {
        while (!m_pending.empty()) {
            std::string part = std::move(m_pending.front());
            m_pending.pop_front();
            if (part == "..")
                up();
            else
                step(part, kind == MountPointKind::file && m_pending.empty());
        }
        if (kind == MountPointKind::file && !m_made_file)
            throw not_mountable(m_path, joined(m_resolved) + " is a directory, and a file is to be mounted there");
        return joined(m_resolved);
    }

private:
    void up()
    {
        if (m_resolved.empty())
            return;
        m_resolved.pop_back();
        m_dirs.pop_back();
    }

    void step(const std::string& part, bool file_wanted)
    {
        int parent = m_dirs.back().get();
        struct stat st { };
        if (::fstatat(parent, part.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno != ENOENT)
                throw io_error("inspect", here(part));
            create(parent, part, file_wanted);
            return step(part, file_wanted);
        }
        if (S_ISLNK(st.st_mode))
            return follow(parent, part);
        if (file_wanted && S_ISREG(st.st_mode)) {
            m_resolved.push_back(part);
            m_made_file = true;
            return;
        }
        if (!S_ISDIR(st.st_mode))
            throw not_mountable(m_path,
                (m_resolved.empty() ? "/" : joined(m_resolved) + "/") + part
                    + (file_wanted ? " is not a regular file" : " is not a directory"));
        UniqueFd sub = open_directory(parent, part);
        if (sub.get() < 0)
            throw io_error("open directory", here(part));
        m_dirs.push_back(std::move(sub));
        m_resolved.push_back(part);
    }

    void create(int parent, const std::string& part, bool file_wanted)
    {
        if (file_wanted) {
            UniqueFd made(::openat(parent, part.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
            if (made.get() < 0 && errno != EEXIST)
                throw io_error("create mount point", here(part));
        } else if (::mkdirat(parent, part.c_str(), 0755) != 0 && errno != EEXIST) {
            throw io_error("create mount point", here(part));
        }
    }

    void follow(int parent, const std::string& part)
    {
        if (++m_links > k_max_links)
            throw not_mountable(m_path, "its symbolic links loop");
        std::vector<char> target(PATH_MAX);
        ssize_t length = ::readlinkat(parent, part.c_str(), target.data(), target.size());
        if (length < 0)
            throw io_error("read link", here(part));
        std::string_view text(target.data(), static_cast<std::size_t>(length));
        if (text.starts_with("/")) {
            m_resolved.clear();
            m_dirs.erase(m_dirs.begin() + 1, m_dirs.end());
        }
        push_front_components(m_pending, text);
    }

    std::filesystem::path here(const std::string& part) const { return m_root / joined(m_resolved).substr(1) / part; }

    std::filesystem::path m_root;
    std::string m_path;
    std::deque<std::string> m_pending;
    std::vector<UniqueFd> m_dirs; // the root, then each directory of m_resolved
    std::vector<std::string> m_resolved;
    int m_links = 0;
    bool m_made_file = false;
};

} // namespace

std::string make_mount_point(const std::filesystem::path& root, std::string_view path, MountPointKind kind)
{
    return Walk(root, path).run(kind);
}

} // namespace dlenv::rootfs
