#pragma once

#include <deque>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::verify {

// Linux's MAXSYMLINKS: the most links one lookup inside a rootfs follows.
constexpr int k_max_rootfs_links = 40;

// Puts the components of `path` (as oci::split_path gives them) in front of `pending`, as
// a walk does with the target of a link it meets.
void push_front_components(std::deque<std::string>& pending, std::string_view path);

// Looks up an absolute path of the image inside the unpacked `root`, as the image's own
// processes would see it: symbolic links are followed with absolute targets taken from
// `root` and `..` stopping at `root`, so nothing outside `root` is ever reached. Returns
// the host path of what the path names, or nullopt when it does not exist or a chain of
// links is longer than 40 (a loop).
std::optional<std::filesystem::path> find_in_rootfs(const std::filesystem::path& root, std::string_view path);

// The names in the image's directory `path`, looked up with find_in_rootfs, sorted; empty
// when it is no directory. A name may itself be a link: look each up again before use.
std::vector<std::string> names_in_rootfs(const std::filesystem::path& root, std::string_view path);

} // namespace dlenv::verify
