#pragma once

#include "core/finding.h"
#include "lock/lockfile.h"
#include "matrix/matrix.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace dlenv::image {

// Holds the lock's framework to what its base carries by its config (env, labels):
// resolve::check_framework_on_base's findings. A failed one is Error(conflict) naming the
// base, the rule and the fix, before anything is written.
std::vector<Finding> check_base_fits(const lock::Lockfile& lock, const std::string& base_reference,
    const nlohmann::json& base_config, const matrix::Matrix& matrix);

} // namespace dlenv::image
