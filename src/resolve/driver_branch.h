#pragma once

#include "core/finding.h"
#include "matrix/matrix.h"
#include "resolve/query.h"

#include <optional>

namespace dlenv::resolve {

// A query whose driver is given as its branch ("535"), with the branch's newest Linux release
// on record in its place: what a distribution's nvidia-driver-535 package installs.
struct BranchRead {
    Query query;
    std::optional<Finding> finding; // which release stands for the branch; none: no branch was given
    std::optional<DriverVersion> oldest; // the branch's oldest release on record, where it is another
};

// Throws Error(invalid_input) for a branch the matrix lists no releases of, naming those it does.
BranchRead read_driver_branch(const matrix::Matrix& matrix, const Query& query);

} // namespace dlenv::resolve
