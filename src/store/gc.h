#pragma once

#include "store/store.h"

#include <cstddef>
#include <cstdint>

namespace dlenv::store {

struct GcReport {
    std::size_t kept_blobs = 0;
    std::size_t removed_blobs = 0; // unreferenced blobs and leftovers of interrupted writes
    std::int64_t removed_bytes = 0;
    std::size_t forgotten_layers = 0; // layer-cache entries whose blobs went away
};

// Removes every blob that no tag, no index.json entry and none of the last
// `keep_history` history entries of each image references, and what killed writers left
// (leftovers.h). Artifacts are kept: see artifacts.h. Writers only.
GcReport collect_garbage(const Store& store, std::size_t keep_history);

} // namespace dlenv::store
