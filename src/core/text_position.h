#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace dlenv {

// "LINE:COLUMN" of the character a JSON parse error's `byte` (1-based) points at.
std::string text_position(std::string_view text, std::size_t byte);

} // namespace dlenv
