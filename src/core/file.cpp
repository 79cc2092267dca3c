#include "core/file.h"

#include "core/error.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <utility>
#include <unistd.h>

namespace dlenv {
namespace {

Error io_error(const std::string& action, const std::filesystem::path& path)
{
    return Error(ErrorCode::io, action + " " + path.string() + ": " + std::strerror(errno));
}

// Closes the descriptor on every path out of write_file_atomic.
class Descriptor {
public:
    explicit Descriptor(int fd) : m_fd(fd) {}
    ~Descriptor()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    int get() const { return m_fd; }
    int release() { return std::exchange(m_fd, -1); }

private:
    int m_fd;
};

void fsync_directory(const std::filesystem::path& dir)
{
    Descriptor fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (fd.get() < 0 || ::fsync(fd.get()) != 0)
        throw io_error("sync directory", dir);
}

} // namespace

std::string read_file(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        if (!std::filesystem::exists(path))
            throw Error(ErrorCode::not_found, "no such file: " + path.string());
        throw io_error("open", path);
    }
    std::ostringstream out;
    out << in.rdbuf();
    if (in.bad())
        throw io_error("read", path);
    return out.str();
}

void write_file_atomic(const std::filesystem::path& path, std::string_view contents)
{
    std::filesystem::path dir = path.parent_path().empty() ? "." : path.parent_path();
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
        throw Error(ErrorCode::io, "create directory " + dir.string() + ": " + ec.message());

    std::string temp = (dir / ("." + path.filename().string() + ".tmp-XXXXXX")).string();
    Descriptor fd(::mkstemp(temp.data()));
    if (fd.get() < 0)
        throw io_error("create temporary file", temp);
    try {
        for (std::size_t done = 0; done < contents.size();) {
            ssize_t n = ::write(fd.get(), contents.data() + done, contents.size() - done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                throw io_error("write", temp);
            done += static_cast<std::size_t>(n);
        }
        if (::fchmod(fd.get(), 0644) != 0 || ::fsync(fd.get()) != 0)
            throw io_error("sync", temp);
        if (::close(fd.release()) != 0)
            throw io_error("close", temp);
        if (::rename(temp.c_str(), path.c_str()) != 0)
            throw io_error("rename into place", path);
    } catch (...) {
        ::unlink(temp.c_str());
        throw;
    }
    fsync_directory(dir);
}

} // namespace dlenv
