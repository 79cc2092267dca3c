#pragma once

#include "resolve/acceptance.h"
#include "resolve/profile.h"

#include <optional>

#include <string>
#include <vector>

namespace dlenv::lock {

// validation.thresholds: the fractions of a GPU's spec its measured figures must reach.
// The defaults are the profile's, held to when no lock says otherwise.
struct Thresholds {
    double bandwidth_min_fraction = resolve::k_default_bandwidth_min_fraction; // memory bandwidth over the spec's
    double gemm_min_fraction = resolve::k_default_gemm_min_fraction; // FP16 and BF16 GEMM over the dense tensor peak
};

// How an image built from the lock is verified.
struct Validation {
    std::vector<std::string> tiers; // "static", "gpu", "framework"; empty: static only
    Thresholds thresholds;
    // The acceptance tier's training job and limits, when the profile names them; none
    // writes no validation.acceptance, so locks of profiles without one keep their bytes.
    std::optional<resolve::Acceptance> acceptance;
};

} // namespace dlenv::lock
