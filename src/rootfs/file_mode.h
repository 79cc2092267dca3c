#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dlenv::rootfs {

// A file's permission bits in an image as profiles and locks write them: four octal
// digits with a leading zero ("0644"). nullopt for anything else.
std::optional<std::uint32_t> parse_file_mode(std::string_view text);
std::string file_mode_text(std::uint32_t mode);

} // namespace dlenv::rootfs
