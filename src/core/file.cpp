#include "core/file.h"

#include "core/atomic_temporary.h"
#include "core/error.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace dlenv {

Error io_error(const std::string& action, const std::filesystem::path& path)
{
    return Error(errno == ENOENT ? ErrorCode::not_found : ErrorCode::io,
        action + " " + path.string() + ": " + std::strerror(errno));
}

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
    std::string bytes;
    char chunk[64 * 1024];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        if (bytes.size() + static_cast<std::size_t>(in.gcount()) > k_read_file_max_bytes)
            throw Error(ErrorCode::invalid_input,
                path.string() + ": more than " + std::to_string(k_read_file_max_bytes >> 20)
                    + " MiB; dlenv reads no file of that size whole",
                "name the lockfile, profile or manifest itself, not a device or a stream");
        bytes.append(chunk, static_cast<std::size_t>(in.gcount()));
    }
    if (in.bad())
        throw io_error("read", path);
    return bytes;
}

AtomicFile::AtomicFile(const std::filesystem::path& path, unsigned mode, Durability durability)
    : m_path(path)
    , m_mode(mode)
    , m_durability(durability)
{
    std::filesystem::path dir = path.parent_path().empty() ? "." : path.parent_path();
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
        throw Error(ErrorCode::io, "create directory " + dir.string() + ": " + ec.message());
    m_temp = atomic_temporary_template(path);
    m_fd = UniqueFd(::mkstemp(m_temp.data()));
    if (m_fd.get() < 0)
        throw io_error("create temporary file", m_temp);
}

AtomicFile::~AtomicFile()
{
    if (!m_temp.empty())
        ::unlink(m_temp.c_str());
}

void AtomicFile::write(std::string_view bytes)
{
    write_all(m_fd.get(), bytes, m_temp);
    m_written += bytes.size();
    // Starting writeback as the file grows lets the disk work while the caller computes,
    // so the fsync in commit() waits for the last few megabytes, not for gigabytes.
    constexpr std::uint64_t k_writeback_step = 32 << 20;
    if (m_durability == Durability::synced && m_written - m_flushed >= k_writeback_step) {
        ::sync_file_range(m_fd.get(), static_cast<off_t>(m_flushed), static_cast<off_t>(m_written - m_flushed),
            SYNC_FILE_RANGE_WRITE);
        m_flushed = m_written;
    }
}

void AtomicFile::commit_as(const std::filesystem::path& path)
{
    bool synced = m_durability == Durability::synced;
    if (::fchmod(m_fd.get(), m_mode) != 0 || (synced && ::fsync(m_fd.get()) != 0))
        throw io_error("sync", m_temp);
    if (::close(m_fd.release()) != 0)
        throw io_error("close", m_temp);
    if (::rename(m_temp.c_str(), path.c_str()) != 0)
        throw io_error("rename into place", path);
    m_temp.clear();
    if (synced)
        fsync_directory(path.parent_path().empty() ? "." : path.parent_path());
}

void copy_file_atomic(const std::filesystem::path& from, const std::filesystem::path& to)
{
    std::ifstream in(from, std::ios::binary);
    if (!in)
        throw Error(std::filesystem::exists(from) ? ErrorCode::io : ErrorCode::not_found,
            (std::filesystem::exists(from) ? "cannot read " : "no such file: ") + from.string());
    AtomicFile out(to);
    std::string buffer(1 << 20, '\0');
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        out.write(std::string_view(buffer.data(), static_cast<std::size_t>(in.gcount())));
    }
    if (in.bad())
        throw io_error("read", from);
    out.commit();
}

void write_file_atomic(const std::filesystem::path& path, std::string_view contents)
{
    AtomicFile file(path);
    file.write(contents);
    file.commit();
}

} // namespace dlenv
