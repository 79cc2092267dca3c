#pragma once

#include "core/temp_directory.h"
#include "store/file_lock.h"
#include "store/store.h"

#include <filesystem>
#include <string_view>
#include <vector>

namespace dlenv::store {

// A private scratch directory under <store>/dlenv/staging/, <prefix>XXXXXX: the files of
// one layer before they are packed into a blob, or the rootfs verify unpacks. It lives on
// the store's filesystem, which has room for what becomes a blob there when $TMPDIR may
// not. Its owner holds a lock on the directory's `.owner` file while the directory lives,
// so a directory whose owner was killed is told from one in use. Removed with everything
// under it when destroyed. Made while the store's lock is held (shared or exclusive), so
// that remove_abandoned_staging never sees one between its making and its locking.
class StagingDir {
public:
    explicit StagingDir(const Store& store, std::string_view prefix = "layer-");

    const std::filesystem::path& path() const { return m_directory.path(); }

private:
    TempDirectory m_directory;
    FileLock m_owner;
};

// Where StagingDirs are made.
std::filesystem::path staging_root(const Store& store);

// The staging directories no live owner holds: what killed writers and verifiers left.
// Call with the store's lock held, shared or exclusive, so that none is being made.
std::vector<std::filesystem::path> abandoned_staging(const Store& store);

// Removes the abandoned staging directories, and the staging root once it is empty; those
// in use stay. Call with the store's lock held. Never throws for what cannot be removed.
void remove_abandoned_staging(const Store& store);

} // namespace dlenv::store
