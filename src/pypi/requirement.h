#pragma once

#include "pypi/marker.h"
#include "pypi/specifier.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::pypi {

// A PEP 508 dependency specification: `name[extra,...] specifiers ; marker`, with the
// specifiers optionally in parentheses. Direct references (`name @ URL`) are refused:
// everything dlenv locks comes from an index and is pinned by sha256. `parse` throws
// Error(invalid_input) naming the requirement and what is wrong with it.
struct Requirement {
    std::string name; // as written
    std::vector<std::string> extras; // normalised, sorted, unique
    SpecifierSet specifiers;
    std::optional<Marker> marker;

    static Requirement parse(std::string_view text);

    std::string key() const; // the normalised name
    // Whether the requirement applies for `env` when `extra` is being installed ("" for
    // the package itself); true without a marker.
    bool applies(const MarkerEnvironment& env, std::string_view extra = "") const;
    std::string str() const; // "torch[cuda]==2.1.2; python_version >= \"3.8\""
};

} // namespace dlenv::pypi
