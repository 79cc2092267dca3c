#include "oci/file_source.h"

#include "core/error.h"
#include "core/file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dlenv::oci {
FileSource::FileSource(const std::filesystem::path& path)
    : m_path(path)
    , m_fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC))
    , m_buffer(1 << 20)
{
    struct stat st { };
    if (m_fd.get() < 0 || ::fstat(m_fd.get(), &st) != 0)
        throw io_error("open", path);
    m_size = st.st_size;
}

std::string_view FileSource::next()
{
    for (;;) {
        ssize_t n = ::read(m_fd.get(), m_buffer.data(), m_buffer.size());
        if (n >= 0)
            return { m_buffer.data(), static_cast<std::size_t>(n) };
        if (errno != EINTR)
            throw io_error("read", m_path);
    }
}

} // namespace dlenv::oci
