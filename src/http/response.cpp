#include "http/response.h"
#include "core/text.h"

#include <algorithm>

namespace dlenv::http {

std::optional<std::string> find_header(const std::vector<Header>& headers, std::string_view name)
{
    auto same = [name](const Header& header) { return equal_ignoring_case(header.name, name); };
    auto found = std::find_if(headers.rbegin(), headers.rend(), same);
    if (found == headers.rend())
        return std::nullopt;
    return found->value;
}

} // namespace dlenv::http
