#pragma once

#include <filesystem>

namespace dlenv {

// A file that a profile or a lock names for dlenv to read: `path` with every symlink
// resolved. Throws Error(not_found) when it does not exist, and Error(invalid_input) when
// it is not a regular file (a directory, a device such as /dev/zero, a FIFO), which a
// read would fail on, never finish, or wait on forever. The message names `path` and what
// it is.
std::filesystem::path resolve_regular_file(const std::filesystem::path& path);

// Whether the resolved `path` lies inside the resolved directory `root`.
bool is_inside(const std::filesystem::path& path, const std::filesystem::path& root);

} // namespace dlenv
