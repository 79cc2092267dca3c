#pragma once

#include "cli/commands.h"
#include "matrix/matrix.h"

namespace dlenv::cli {

// The matrices `--matrix` names, else the compiled-in ones.
const matrix::Matrix& load_matrix(const Options& options);

} // namespace dlenv::cli
