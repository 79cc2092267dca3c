#pragma once

#include "matrix/matrix.h"
#include "resolve/profile.h"

#include <optional>
#include <string>

namespace dlenv::resolve {

// The CPython the image gets when its base has none, as the lock pins it.
struct PythonRuntimePin {
    std::string url;
    std::string sha256; // lowercase hex
    std::string version; // CPython's full version, "3.10.19"; empty for an archive the profile names
    std::string release; // python-build-standalone's release tag, "20251031"; empty likewise
};

// The profile's packages.python_runtime pinned: the archive it names as it names it, or,
// for the version form, the matrix's python-build-standalone build of that minor for the
// profile's machine. nullopt when the profile asks for none. A minor or machine the matrix
// has no build of is Error(conflict) naming both and the builds it has.
std::optional<PythonRuntimePin> pin_python_runtime(const matrix::Matrix& matrix, const Profile& profile);

} // namespace dlenv::resolve
