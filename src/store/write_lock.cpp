#include "store/write_lock.h"

#include "core/error.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>

namespace dlenv::store {

WriteLock::WriteLock(const std::filesystem::path& file)
    : m_fd(::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644))
{
    if (m_fd.get() < 0)
        throw Error(ErrorCode::io, "open lock file " + file.string() + ": " + std::strerror(errno));
    int rc;
    do
        rc = ::flock(m_fd.get(), LOCK_EX);
    while (rc != 0 && errno == EINTR);
    if (rc != 0)
        throw Error(ErrorCode::io, "lock " + file.string() + ": " + std::strerror(errno));
}

} // namespace dlenv::store
