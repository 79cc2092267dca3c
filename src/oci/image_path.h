#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::oci {

// Paths as tar archives and images spell them: '/'-separated, relative to a root.

// The components of `path` without empty and "." ones; ".." is kept for the caller to judge.
std::vector<std::string> split_path(std::string_view path);
// The components joined with '/'; "" when there are none.
std::string join_path(const std::vector<std::string>& parts);
// `path` with each ".." taking back the component before it, or nullopt when one would
// climb above the root.
std::optional<std::string> normalize_path(std::string_view path);

} // namespace dlenv::oci
