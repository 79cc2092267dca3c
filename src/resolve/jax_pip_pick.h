#pragma once

#include "matrix/matrix.h"
#include "resolve/query.h"

#include <optional>
#include <string>

namespace dlenv::resolve {

// The release pip installs for a JAX package named without a version, where a package named
// beside it with one pins it: the jaxlib a jax release requires, the plugin its CUDA extra
// pins, the newest jax whose requirements admit a pinned jaxlib.
struct JaxPipPick {
    Pep440Version version;
    std::string because; // "the jaxlib jax==0.6.0 requires"
    std::string why; // the sources of the row that holds `version`
};

// None: nothing named beside `unversioned` constrains it, and pip installs the newest release.
std::optional<JaxPipPick> jax_pip_pick(
    const matrix::Matrix& matrix, const Query& asked, const FrameworkRequest& unversioned);

} // namespace dlenv::resolve
