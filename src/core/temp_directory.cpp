#include "core/temp_directory.h"

#include "core/error.h"
#include "core/file.h"

#include <cstdlib>
#include <string>

namespace dlenv {

TempDirectory::TempDirectory(const std::filesystem::path& parent, std::string_view prefix)
{
    std::string pattern = (parent / (std::string(prefix) + "XXXXXX")).string();
    if (!::mkdtemp(pattern.data()))
        throw io_error("create a temporary directory", pattern);
    m_path = pattern;
}

TempDirectory::~TempDirectory()
{
    remove_tree(m_path);
}

void remove_tree(const std::filesystem::path& dir) noexcept
{
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
        if (it->is_directory(ec) && !it->is_symlink(ec))
            std::filesystem::permissions(
                it->path(), std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(dir, ec);
}

} // namespace dlenv
