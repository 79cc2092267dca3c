#pragma once

#include "pypi/target.h"

#include <memory>
#include <string>
#include <string_view>

namespace dlenv::pypi {

// A PEP 508 environment marker: comparisons of marker variables and quoted strings,
// joined by `and`, `or` and parentheses. Version operators compare as PEP 440 when both
// sides are versions, else as strings (`==`, `!=`, `in`, `not in` only); `extra` compares
// PEP 503-normalised names. `parse` throws Error(invalid_input) naming the marker and
// what it expected; `evaluate` throws it for a comparison PEP 508 leaves undefined.
class Marker {
public:
    struct Node;

    static Marker parse(std::string_view text);

    // `extra` is the extra being installed, "" for none.
    bool evaluate(const MarkerEnvironment& env, std::string_view extra = "") const;
    bool mentions_extra() const;
    const std::string& str() const { return m_text; }

private:
    std::shared_ptr<const Node> m_root;
    std::string m_text;
};

} // namespace dlenv::pypi
