#pragma once

#include "matrix/matrix.h"
#include "resolve/query.h"
#include "resolve/report.h"

namespace dlenv::resolve {

// Answers "does this combination work?" with every rule of the compatibility guide:
// backward, minor-version and forward compatibility of drivers; cubin and PTX rules for
// each GPU; the CUDA window of each architecture; cuDNN builds; framework builds, their
// Python range and companions. Unknown names or versions throw Error(invalid_input);
// combinations that do not work come back as error findings, with suggestions.
Report check(const matrix::Matrix& matrix, const Query& query);

} // namespace dlenv::resolve
