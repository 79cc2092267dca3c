#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dlenv {

// The candidates nearest to `query`, best first, for "did you mean" messages:
// case-insensitive edit distance, with candidates that contain the query (or that
// the query contains) ranked first. At most `limit` are returned.
std::vector<std::string> closest_matches(
    std::string_view query, const std::vector<std::string>& candidates, std::size_t limit = 3);

// "a, b or c"
std::string join_alternatives(const std::vector<std::string>& items, std::string_view last_separator = " or ");

} // namespace dlenv
