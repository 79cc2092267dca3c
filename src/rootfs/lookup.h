#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::rootfs {

// Looks up an absolute path of the image inside the unpacked `root`, as the image's own
// processes would see it: symbolic links are followed with absolute targets taken from
// `root` and `..` stopping at `root`, so nothing outside `root` is ever reached. Returns
// the host path of what the path names, or nullopt when it does not exist or a chain of
// links is longer than 40 (a loop).
std::optional<std::filesystem::path> lookup(const std::filesystem::path& root, std::string_view path);

// The names in the image's directory `path`, looked up with `lookup`, sorted; empty when
// it is no directory. A name may itself be a link: look each up again before use.
std::vector<std::string> names_in(const std::filesystem::path& root, std::string_view path);

} // namespace dlenv::rootfs
