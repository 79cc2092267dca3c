#include "store/leftovers.h"

#include "core/atomic_temporary.h"
#include "store/staging.h"

namespace dlenv::store {

Leftovers find_leftovers(const Store& store)
{
    Leftovers out { {}, abandoned_staging(store) };
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
    remove_abandoned_staging(store);
}

} // namespace dlenv::store
