#include "store/file_lock.h"

#include "core/error.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>

namespace dlenv::store {

FileLock::FileLock(const std::filesystem::path& file, Mode mode)
    : m_fd(::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644))
{
    if (m_fd.get() < 0)
        throw Error(ErrorCode::io, "open lock file " + file.string() + ": " + std::strerror(errno));
    int rc;
    do
        rc = ::flock(m_fd.get(), mode == Mode::exclusive ? LOCK_EX : LOCK_SH);
    while (rc != 0 && errno == EINTR);
    if (rc != 0)
        throw Error(ErrorCode::io, "lock " + file.string() + ": " + std::strerror(errno));
}

std::optional<FileLock> FileLock::try_exclusive(const std::filesystem::path& file)
{
    UniqueFd fd(::open(file.c_str(), O_RDWR | O_CLOEXEC));
    if (fd.get() < 0) {
        if (errno == ENOENT)
            return FileLock(UniqueFd());
        throw Error(ErrorCode::io, "open lock file " + file.string() + ": " + std::strerror(errno));
    }
    int rc;
    do
        rc = ::flock(fd.get(), LOCK_EX | LOCK_NB);
    while (rc != 0 && errno == EINTR);
    if (rc == 0)
        return FileLock(std::move(fd));
    if (errno == EWOULDBLOCK)
        return std::nullopt;
    throw Error(ErrorCode::io, "lock " + file.string() + ": " + std::strerror(errno));
}

} // namespace dlenv::store
