#include "store/staging.h"

#include "core/error.h"
#include "core/file.h"

#include <cstdlib>
#include <string>

namespace dlenv::store {

std::filesystem::path staging_root(const Store& store)
{
    return store.records_dir() / "staging";
}

StagingDir::StagingDir(const Store& store)
{
    std::error_code ec;
    std::filesystem::create_directories(staging_root(store), ec);
    if (ec)
        throw Error(ErrorCode::io, "create directory " + staging_root(store).string() + ": " + ec.message());
    std::string pattern = (staging_root(store) / "layer-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
        throw io_error("create a staging directory", pattern);
    m_path = pattern;
}

StagingDir::~StagingDir()
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

} // namespace dlenv::store
