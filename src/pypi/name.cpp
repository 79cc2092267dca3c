#include "pypi/name.h"

#include "core/text.h"

#include <cctype>

namespace dlenv::pypi {
namespace {

bool is_separator(char c)
{
    return c == '-' || c == '_' || c == '.';
}

} // namespace

std::string normalize_name(std::string_view name)
{
    std::string out;
    for (char c : name) {
        if (is_separator(c)) {
            if (out.empty() || out.back() != '-')
                out += '-';
        } else {
            out += ascii_lower(c);
        }
    }
    return out;
}

bool is_valid_name(std::string_view name)
{
    if (name.empty() || is_separator(name.front()) || is_separator(name.back()))
        return false;
    for (char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && !is_separator(c))
            return false;
    return true;
}

} // namespace dlenv::pypi
