#pragma once

#include "core/version.h"
#include "matrix/matrix.h"

#include <string>
#include <string_view>
#include <vector>

namespace dlenv::resolve {

// A GPU to check against: a known model, or a bare compute capability.
struct GpuTarget {
    std::string label;              // "NVIDIA GeForce RTX 4090" or "sm_89"
    ComputeCapability compute_capability;
    const matrix::Gpu* model = nullptr; // null for a bare compute capability
};

// Reads "RTX 4090", "sm_89" or "8.9". A compute capability the matrix has no architecture
// for, or an unknown model, throws Error(invalid_input) naming the closest known ones.
GpuTarget resolve_gpu(const matrix::Matrix& matrix, std::string_view text);

} // namespace dlenv::resolve
