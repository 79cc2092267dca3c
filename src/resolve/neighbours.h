#pragma once

#include <optional>
#include <string>
#include <vector>

namespace dlenv::resolve {

// The entries of a known list on either side of a version it lacks, as the list spells them.
struct Neighbours {
    std::optional<std::string> below;
    std::optional<std::string> above;

    std::vector<std::string> texts() const // below, then above; a missing side left out
    {
        std::vector<std::string> out;
        for (const auto* text : { &below, &above })
            if (*text)
                out.push_back(**text);
        return out;
    }
};

template <typename Version> Neighbours known_neighbours(const std::vector<std::string>& known, const Version& wanted)
{
    std::optional<Version> below, above;
    Neighbours out;
    for (const auto& text : known) {
        auto v = Version::parse(text);
        if (v < wanted && (!below || *below < v)) {
            below = v;
            out.below = text;
        }
        if (wanted < v && (!above || v < *above)) {
            above = v;
            out.above = text;
        }
    }
    return out;
}

} // namespace dlenv::resolve
