#pragma once

#include <filesystem>
#include <optional>
#include <string_view>

namespace dlenv::verify {

// Looks up an absolute path of the image inside the unpacked `root`, as the image's own
// processes would see it: symbolic links are followed with absolute targets taken from
// `root` and `..` stopping at `root`, so nothing outside `root` is ever reached. Returns
// the host path of what the path names, or nullopt when it does not exist or a chain of
// links is longer than 40 (a loop).
std::optional<std::filesystem::path> find_in_rootfs(const std::filesystem::path& root, std::string_view path);

} // namespace dlenv::verify
