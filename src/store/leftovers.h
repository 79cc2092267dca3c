#pragma once

#include "store/store.h"

#include <filesystem>
#include <vector>

namespace dlenv::store {

// What writers killed half-way leave in the store: the temporary files of atomic writes
// (core/atomic_temporary.h: blobs, index.json, refs.json, artifacts, verification records,
// layer-cache entries) and staging directories whose owner is gone (staging.h).
struct Leftovers {
    std::vector<std::filesystem::path> temporary_files;
    std::vector<std::filesystem::path> staging_dirs;

    bool empty() const { return temporary_files.empty() && staging_dirs.empty(); }
};

// Lists them. Read-only. Under the shared lock of a store opened for reading no writer
// runs, so they are all leftovers too.
Leftovers find_leftovers(const Store& store);

// Removes them, and what cannot be removed stays. Writers only: the writer lock means no
// writer owns a temporary file, and a staging directory in use (a running verify's) stays.
void remove_leftovers(const Store& store);

} // namespace dlenv::store
