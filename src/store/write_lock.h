#pragma once

#include "core/file.h"

#include <filesystem>

namespace dlenv::store {

// An exclusive advisory lock (flock) on a file; waits while another dlenv holds it and
// releases it when destroyed, or when the process dies.
class WriteLock {
public:
    explicit WriteLock(const std::filesystem::path& file);

private:
    UniqueFd m_fd;
};

} // namespace dlenv::store
