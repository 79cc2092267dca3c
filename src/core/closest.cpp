#include "core/closest.h"

#include "core/text.h"

#include <algorithm>
#include <cctype>

namespace dlenv {
namespace {

std::string fold(std::string_view text)
{
    std::string out;
    for (unsigned char c : text)
        if (std::isalnum(c) || c == '.')
            out += ascii_lower(static_cast<char>(c));
    return out;
}

std::size_t edit_distance(const std::string& a, const std::string& b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t above = row[j];
            row[j] = std::min({ row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1) });
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

std::vector<std::string> closest_matches(
    std::string_view query, const std::vector<std::string>& candidates, std::size_t limit)
{
    std::string q = fold(query);
    struct Scored {
        std::size_t score;
        std::string name;
    };
    std::vector<Scored> scored;
    for (const auto& candidate : candidates) {
        std::string c = fold(candidate);
        bool contains = !q.empty() && (c.find(q) != std::string::npos || q.find(c) != std::string::npos);
        std::size_t distance = edit_distance(q, c);
        // Containment wins over distance; long unrelated names are not suggested.
        if (!contains && distance > std::max<std::size_t>(2, q.size() / 2))
            continue;
        scored.push_back({ contains ? distance : 1000 + distance, candidate });
    }
    std::stable_sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) { return a.score < b.score; });
    std::vector<std::string> out;
    for (const auto& s : scored) {
        if (out.size() == limit)
            break;
        if (std::find(out.begin(), out.end(), s.name) == out.end())
            out.push_back(s.name);
    }
    return out;
}

std::string join_alternatives(const std::vector<std::string>& items, std::string_view last_separator)
{
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0)
            out += (i + 1 == items.size()) ? std::string(last_separator) : std::string(", ");
        out += items[i];
    }
    return out;
}

} // namespace dlenv
