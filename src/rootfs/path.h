#pragma once

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::rootfs {

// The lexical rules for paths in an image, which no file on disk is consulted for.
// Tar archives and layers spell a path '/'-separated and relative to the root; a
// process in the image, a profile's target and a lock spell it absolute.

// Linux's MAXSYMLINKS: the most symbolic links one lookup inside a root follows.
constexpr int k_max_links = 40;

// The components of `path` without empty and "." ones; ".." is kept for the caller to judge.
std::vector<std::string> split_path(std::string_view path);
// The components joined with '/'; "" when there are none.
std::string join_path(const std::vector<std::string>& parts);
// `path` with each ".." taking back the component before it, or nullopt when one would
// climb above the root.
std::optional<std::string> normalize_path(std::string_view path);
// Puts the components of `path` (as split_path gives them) in front of `pending`, as a
// walk does with the target of a link it meets.
void push_front_components(std::deque<std::string>& pending, std::string_view path);
// An absolute path as a layer entry names it: without its leading '/'s ("" for the root).
std::string relative_path(std::string_view absolute);

// Why `path` is too long for Linux to name, or "" when it is not: a component over 255
// bytes (NAME_MAX) or the whole over 4096 (PATH_MAX).
std::string path_length_problem(std::string_view path);

// Why `target` cannot name a file a profile puts in an image, or "" when it can: it must
// be absolute, not the root, free of empty, "." and ".." components and of control
// characters (a newline would end a Dockerfile line), short enough (path_length_problem),
// and neither inside dlenv's own directory (k_dlenv_dir) nor above it.
std::string image_target_problem(std::string_view target);

} // namespace dlenv::rootfs
