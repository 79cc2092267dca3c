#pragma once

#include "core/temp_directory.h"
#include "store/store.h"

#include <filesystem>

namespace dlenv::store {

// A private scratch directory under <store>/dlenv/staging/ for the files of one layer
// before they are packed into a blob: on the store's filesystem, which has room for what
// becomes a blob there when $TMPDIR may not. Removed with everything under it when
// destroyed; `dlenv gc` removes what a killed writer left. Writers only.
class StagingDir {
public:
    explicit StagingDir(const Store& store);

    const std::filesystem::path& path() const { return m_directory.path(); }

private:
    TempDirectory m_directory;
};

// Where StagingDirs are made.
std::filesystem::path staging_root(const Store& store);

} // namespace dlenv::store
