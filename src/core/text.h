#pragma once

#include <string>
#include <string_view>

namespace dlenv {

// `text` without the leading and trailing characters std::isspace calls white space.
std::string_view trim_whitespace(std::string_view text);

// ASCII case folding, as header names, package names and GPU names compare: bytes outside
// A-Z are left as they are, whatever the locale.
char ascii_lower(char c);
char ascii_upper(char c);
std::string ascii_lowercase(std::string_view text);
bool equal_ignoring_case(std::string_view a, std::string_view b);
bool starts_with_ignoring_case(std::string_view text, std::string_view prefix);

// Whether `text` is a non-empty run of ASCII digits ("124", not "" or "12a").
bool all_ascii_digits(std::string_view text);

} // namespace dlenv
