#include "http/response.h"

#include <algorithm>
#include <cctype>

namespace dlenv::http {

std::optional<std::string> find_header(const std::vector<Header>& headers, std::string_view name)
{
    auto same = [name](const Header& header) {
        return std::ranges::equal(header.name, name, [](char a, char b) { return std::tolower(a) == std::tolower(b); });
    };
    auto found = std::find_if(headers.rbegin(), headers.rend(), same);
    if (found == headers.rend())
        return std::nullopt;
    return found->value;
}

} // namespace dlenv::http
