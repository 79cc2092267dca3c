#pragma once

#include "core/file.h"

#include <filesystem>

namespace dlenv::store {

// An advisory lock (flock) on a file: exclusive for writers, shared for readers. Waits
// while a conflicting holder has it; released when destroyed, or when the process dies.
class FileLock {
public:
    enum class Mode { shared, exclusive };
    FileLock(const std::filesystem::path& file, Mode mode);

private:
    UniqueFd m_fd;
};

} // namespace dlenv::store
