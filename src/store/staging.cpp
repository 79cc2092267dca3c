#include "store/staging.h"

#include "core/error.h"

namespace dlenv::store {
namespace {

constexpr const char* k_owner_file = ".owner";

const std::filesystem::path& created(const std::filesystem::path& dir)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
        throw Error(ErrorCode::io, "create directory " + dir.string() + ": " + ec.message());
    return dir;
}

} // namespace

std::filesystem::path staging_root(const Store& store)
{
    return store.records_dir() / "staging";
}

StagingDir::StagingDir(const Store& store, std::string_view prefix)
    : m_directory(created(staging_root(store)), prefix)
    , m_owner(m_directory.path() / k_owner_file, FileLock::Mode::exclusive)
{
}

std::vector<std::filesystem::path> abandoned_staging(const Store& store)
{
    std::vector<std::filesystem::path> out;
    std::error_code ec;
    for (auto it = std::filesystem::directory_iterator(staging_root(store), ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
        try {
            if (FileLock::try_exclusive(it->path() / k_owner_file))
                out.push_back(it->path());
        } catch (const Error&) {
            // Unreadable: left for fsck to report rather than removed blind.
        }
    }
    return out;
}

void remove_abandoned_staging(const Store& store)
{
    for (const auto& dir : abandoned_staging(store))
        remove_tree(dir);
    std::error_code ec;
    std::filesystem::remove(staging_root(store), ec); // only when empty
}

} // namespace dlenv::store
