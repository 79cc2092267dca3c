#pragma once

#include "core/pep440.h"
#include "pypi/requirement.h"
#include "pypi/specifier.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::pypi {

// What resolution needs of a release's core metadata (the METADATA file, or a PEP 658
// `.metadata` file an index serves beside the wheel).
struct Metadata {
    std::string name;
    Pep440Version version;
    std::vector<Requirement> requires_dist;
    std::optional<SpecifierSet> requires_python;
    std::vector<std::string> provides_extra; // normalised

    // Parses the email-header form of core metadata; `source` names the file in errors.
    // Throws Error(invalid_input) for a missing Name or Version or a field that does
    // not parse, naming `source` and the field.
    static Metadata parse(std::string_view text, const std::string& source);
};

// The one top-level `*.dist-info` directory of the wheel whose members are `paths`
// ("pip-23.0.1.dist-info"). Throws Error(invalid_input) naming `wheel` when there is none
// or more than one, or when it belongs to another project than `project` (normalised).
std::string dist_info_directory(
    const std::vector<std::string>& paths, const std::string& project, const std::string& wheel);

// The metadata of the wheel file `filename` whose members are `paths`: its one
// `<dist-info>/METADATA`, got through `read` (nullopt when there is no such member),
// parsed, and checked to name the project and version of `filename`. Throws
// Error(invalid_input) naming the wheel when it is not so.
Metadata read_wheel_metadata(const std::string& filename, const std::vector<std::string>& paths,
    const std::function<std::optional<std::string>(const std::string& member)>& read);

// Reads and parses `<dist-info>/METADATA` from the wheel at `path`, as above.
Metadata read_wheel_metadata(const std::filesystem::path& path);

} // namespace dlenv::pypi
