#pragma once

#include "store/store.h"

#include <filesystem>

namespace dlenv::store {

// A private scratch directory under <store>/dlenv/staging/ for the files of one layer
// before they are packed into a blob: on the store's filesystem, which has room for what
// becomes a blob there when $TMPDIR may not. Removed with everything under it when
// destroyed, read-only directories included; `dlenv gc` removes what a killed writer
// left. Writers only.
class StagingDir {
public:
    explicit StagingDir(const Store& store);
    ~StagingDir();
    StagingDir(const StagingDir&) = delete;
    StagingDir& operator=(const StagingDir&) = delete;

    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

// Where StagingDirs are made.
std::filesystem::path staging_root(const Store& store);

// Removes everything under `dir`, giving directories without write permission to their
// owner first. Never throws: what cannot be removed stays.
void remove_tree(const std::filesystem::path& dir) noexcept;

} // namespace dlenv::store
