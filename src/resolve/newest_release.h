#pragma once

#include "core/finding.h"
#include "matrix/matrix.h"
#include "resolve/query.h"

#include <vector>

namespace dlenv::resolve {

// A framework named without a version ("jax[cuda12]", as pip is asked for it) stands for its
// newest release on record: what pip installs, as far as the matrix knows. A companion named
// so stands for the one paired with the torch asked for, else with the newest torch; a JAX
// package, for the one a JAX package pinned beside it requires (jax_pip_pick.h).
struct NewestRead {
    Query query; // every framework with a version
    std::vector<Finding> findings; // which release stands for each framework named without one
};

NewestRead read_newest_releases(const matrix::Matrix& matrix, const Query& query);

} // namespace dlenv::resolve
