#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dlenv {

// Why `target` cannot name a file in an image, or "" when it can: it must be absolute,
// not the root, and free of empty, "." and ".." components and of control characters
// (a newline would end a Dockerfile line).
std::string image_target_problem(std::string_view target);

// A file's permission bits as profiles and locks write them: four octal digits with a
// leading zero ("0644"). nullopt for anything else.
std::optional<std::uint32_t> parse_file_mode(std::string_view text);
std::string file_mode_text(std::uint32_t mode);

} // namespace dlenv
