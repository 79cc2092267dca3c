#pragma once

#include <optional>
#include <string>
#include <vector>

namespace dlenv::resolve {

// The entries of `known` just below and just above `wanted`, as `known` spells them,
// for the hint of a version the matrix lacks; a side with no entry is left out.
template <typename Version>
std::vector<std::string> known_neighbours(const std::vector<std::string>& known, const Version& wanted)
{
    std::optional<Version> below, above;
    const std::string* below_text = nullptr;
    const std::string* above_text = nullptr;
    for (const auto& text : known) {
        auto v = Version::parse(text);
        if (v < wanted && (!below || *below < v)) {
            below = v;
            below_text = &text;
        }
        if (wanted < v && (!above || v < *above)) {
            above = v;
            above_text = &text;
        }
    }
    std::vector<std::string> out;
    for (const auto* text : { below_text, above_text })
        if (text)
            out.push_back(*text);
    return out;
}

} // namespace dlenv::resolve
