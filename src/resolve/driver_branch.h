#pragma once

#include "core/finding.h"
#include "matrix/matrix.h"
#include "resolve/query.h"

#include <cstdint>
#include <optional>

namespace dlenv::resolve {

// A driver given as its branch ("535") stands for the branch's newest Linux release on record:
// what a distribution's nvidia-driver-535 package installs.
struct BranchDriver {
    DriverVersion newest;
    std::optional<DriverVersion> oldest; // the branch's oldest release on record, where it is another
    Finding finding; // which release stands for the branch, and why
};

// Throws Error(invalid_input) for a branch the matrix lists no releases of, naming those it does.
BranchDriver branch_driver(const matrix::Matrix& matrix, std::uint32_t branch);

// A query whose driver is given as its branch, with the branch's newest release in its place.
struct BranchRead {
    Query query;
    std::optional<BranchDriver> branch; // none: no branch was given
};

// Throws as branch_driver does.
BranchRead read_driver_branch(const matrix::Matrix& matrix, const Query& query);

} // namespace dlenv::resolve
