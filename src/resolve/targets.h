#pragma once

#include "core/version.h"
#include "matrix/matrix.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::resolve {

// A GPU to check against: a known model, a family of models (every "A100"), or a bare
// compute capability.
struct GpuTarget {
    std::string label; // "NVIDIA GeForce RTX 4090", "A100" or "sm_89"
    ComputeCapability compute_capability;
    const matrix::Gpu* model = nullptr; // null for a family or a bare compute capability
    std::vector<const matrix::Gpu*> variants; // a family's models, all of this compute capability and segment
    // The model's or family's segment; for a bare compute capability, the one NVIDIA sells
    // all its parts in (sm_80 and sm_90 exist only on data-center parts), else none: unknown.
    std::optional<matrix::GpuSegment> segment;

    // "NVIDIA GeForce RTX 4090 (sm_89)"; "sm_89" where the label is the compute capability.
    std::string with_sm() const;
};

// Reads "RTX 4090", "A100", "sm_89" or "8.9", a model with or without the brand words
// (NVIDIA, GeForce, Tesla) nvidia-smi puts before it. A product family (gpus.json `family`)
// stands for its variants when they share their compute capability and segment, which is
// all that checks of a stack depend on; a check that needs memory or bandwidth asks for
// the variant. An unknown model, a family whose variants differ, or a compute capability
// the matrix has no architecture for throws Error(invalid_input) naming the closest known
// ones.
GpuTarget resolve_gpu(const matrix::Matrix& matrix, std::string_view text);

// A GPU vendor other than NVIDIA, and the builds its GPUs run instead of CUDA ones.
struct OtherVendor {
    std::string_view name;
    std::string_view builds;
};

// The vendor of `text` where it is not NVIDIA. Only words no NVIDIA model uses count:
// "Radeon", "RX" and "MI300X", not "M4" (a Tesla).
std::optional<OtherVendor> other_vendor(std::string_view text);

// NVIDIA's binary compatibility: a cubin of one of `cubins` runs on `device` when it is of the
// same major with an equal or lower minor (sm_86 code runs on 8.9, not on 9.0 or 8.0).
bool cubin_runs_on(const std::vector<ComputeCapability>& cubins, const ComputeCapability& device);

// A model, or every variant of a family, sold only with NVIDIA's Arm CPU (Grace).
bool sold_with_grace(const GpuTarget& gpu);

} // namespace dlenv::resolve
