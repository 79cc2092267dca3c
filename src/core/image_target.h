#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dlenv {

// The directory of the image that dlenv owns: the lock and the validation kit.
constexpr std::string_view k_dlenv_image_dir = "/opt/dlenv";

// Why `path` is too long for Linux to name, or "" when it is not: a component over 255
// bytes (NAME_MAX) or the whole over 4096 (PATH_MAX).
std::string path_length_problem(std::string_view path);

// Why `target` cannot name a file in an image, or "" when it can: it must be absolute,
// not the root, free of empty, "." and ".." components and of control characters (a
// newline would end a Dockerfile line), short enough (path_length_problem), and neither
// inside k_dlenv_image_dir nor above it.
std::string image_target_problem(std::string_view target);

// A file's permission bits as profiles and locks write them: four octal digits with a
// leading zero ("0644"). nullopt for anything else.
std::optional<std::uint32_t> parse_file_mode(std::string_view text);
std::string file_mode_text(std::uint32_t mode);

} // namespace dlenv
