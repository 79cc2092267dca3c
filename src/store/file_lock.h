#pragma once

#include "core/file.h"

#include <filesystem>
#include <optional>

namespace dlenv::store {

// An advisory lock (flock) on a file: exclusive for writers, shared for readers. Waits
// while a conflicting holder has it; released when destroyed, or when the process dies.
class FileLock {
public:
    enum class Mode { shared, exclusive };
    FileLock(const std::filesystem::path& file, Mode mode);

    // Takes an exclusive lock on an existing `file` without waiting: nullopt when another
    // holder has the file locked. A missing file counts as unlocked (nullopt is never
    // returned for it, the lock is then on nothing). Error(io) for other failures.
    static std::optional<FileLock> try_exclusive(const std::filesystem::path& file);

private:
    explicit FileLock(UniqueFd fd)
        : m_fd(std::move(fd))
    {
    }

    UniqueFd m_fd;
};

} // namespace dlenv::store
