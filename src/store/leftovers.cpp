#include "store/leftovers.h"

#include "core/atomic_temporary.h"
#include "core/temp_directory.h"
#include "store/staging.h"

namespace dlenv::store {
namespace {

std::vector<std::filesystem::path> entries(const std::filesystem::path& dir)
{
    std::vector<std::filesystem::path> out;
    std::error_code ec;
    for (auto it = std::filesystem::directory_iterator(dir, ec); !ec && it != std::filesystem::directory_iterator();
         it.increment(ec))
        out.push_back(it->path());
    return out;
}

} // namespace

Leftovers find_leftovers(const Store& store)
{
    Leftovers out { {}, entries(staging_root(store)) };
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(store.layout().dir(), ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (it->path() == staging_root(store))
            it.disable_recursion_pending(); // counted whole above
        else if (is_atomic_temporary(it->path().filename().string()))
            out.temporary_files.push_back(it->path());
    }
    return out;
}

void remove_leftovers(const Store& store)
{
    if (!store.writable())
        throw std::logic_error("remove leftovers from a store opened for reading");
    Leftovers leftovers = find_leftovers(store);
    std::error_code ec;
    for (const auto& file : leftovers.temporary_files)
        std::filesystem::remove(file, ec);
    remove_tree(staging_root(store));
}

} // namespace dlenv::store
