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

} // namespace

UniqueFd::~UniqueFd()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept
{
    if (this != &other) {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = other.release();
    }
    return *this;
}

int UniqueFd::release()
{
    return std::exchange(m_fd, -1);
}

void fsync_directory(const std::filesystem::path& dir)
{
    UniqueFd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (fd.get() < 0 || ::fsync(fd.get()) != 0)
        throw io_error("sync directory", dir);
}

void write_all(int fd, std::string_view bytes, const std::string& what)
{
    for (std::size_t done = 0; done < bytes.size();) {
        ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw Error(ErrorCode::io, "write " + what + ": " + std::strerror(errno));
        done += static_cast<std::size_t>(n);
    }
}

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
    UniqueFd fd(::mkstemp(temp.data()));
    if (fd.get() < 0)
        throw io_error("create temporary file", temp);
    try {
        write_all(fd.get(), contents, temp);
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
