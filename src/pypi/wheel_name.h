#pragma once

#include "core/pep440.h"
#include "pypi/wheel_tags.h"

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::pypi {

// A wheel's optional build tag ("1", "2b"): it orders by its leading number, then by
// the rest as a string, and breaks ties between wheels of one version and tag.
struct BuildTag {
    std::uint64_t number = 0;
    std::string rest;
    friend auto operator<=>(const BuildTag&, const BuildTag&) = default;
};

// A PEP 427 wheel file name: {distribution}-{version}(-{build})?-{python}-{abi}-{platform}.whl,
// with compressed tag sets ("py2.py3") expanded. `parse` throws Error(invalid_input)
// naming the file and the part that is wrong.
struct WheelName {
    std::string distribution; // as in the file name ("nvidia_cudnn_cu11")
    Pep440Version version;
    std::optional<BuildTag> build;
    std::vector<Tag> tags;

    static WheelName parse(std::string_view filename);
    std::string key() const; // the normalised project name
};

} // namespace dlenv::pypi
