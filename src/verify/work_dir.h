#pragma once

#include <filesystem>

namespace dlenv::verify {

// A private directory under $TMPDIR (mode 0700) for one verification's rootfs and
// bundles, removed with everything under it when destroyed, read-only directories of
// the image included.
class WorkDir {
public:
    WorkDir();
    ~WorkDir();
    WorkDir(const WorkDir&) = delete;
    WorkDir& operator=(const WorkDir&) = delete;

    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

} // namespace dlenv::verify
