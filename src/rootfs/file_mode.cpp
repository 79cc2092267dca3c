#include "rootfs/file_mode.h"

#include <cstdio>

namespace dlenv::rootfs {

std::optional<std::uint32_t> parse_file_mode(std::string_view text)
{
    if (text.size() != 4 || text.front() != '0' || text.find_first_not_of("01234567") != std::string_view::npos)
        return std::nullopt;
    std::uint32_t mode = 0;
    for (char digit : text)
        mode = mode * 8 + static_cast<std::uint32_t>(digit - '0');
    return mode;
}

std::string file_mode_text(std::uint32_t mode)
{
    char text[8];
    std::snprintf(text, sizeof text, "%04o", mode);
    return text;
}

} // namespace dlenv::rootfs
