#pragma once

#include <string_view>

namespace dlenv {

// `text` without the leading and trailing characters std::isspace calls white space.
std::string_view trim_whitespace(std::string_view text);

} // namespace dlenv
