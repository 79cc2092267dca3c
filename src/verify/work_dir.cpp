#include "verify/work_dir.h"

#include "core/error.h"
#include "core/file.h"

#include <cstdlib>
#include <string>

namespace dlenv::verify {

WorkDir::WorkDir()
{
    std::string pattern = (std::filesystem::temp_directory_path() / "dlenv-verify-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
        throw io_error("create a temporary directory", pattern);
    m_path = pattern;
}

WorkDir::~WorkDir()
{
    // Layers may leave directories without write permission, which would stop removal.
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(m_path, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
        if (it->is_directory(ec) && !it->is_symlink(ec))
            std::filesystem::permissions(
                it->path(), std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(m_path, ec);
}

} // namespace dlenv::verify
