#pragma once

#include <string>
#include <vector>

namespace dlenv::lock {

// validation.thresholds: the fractions of a GPU's spec its measured figures must reach.
// The defaults are the profile's, held to when no lock says otherwise.
struct Thresholds {
    double bandwidth_min_fraction = 0.8; // memory bandwidth over the spec's
    double gemm_min_fraction = 0.6; // FP16 and BF16 GEMM throughput over the dense tensor peak
};

// How an image built from the lock is verified.
struct Validation {
    std::vector<std::string> tiers; // "static", "gpu", "framework"; empty: static only
    Thresholds thresholds;
};

} // namespace dlenv::lock
