#pragma once

#include "lock/lockfile.h"
#include "matrix/matrix.h"

#include <map>
#include <string>

namespace dlenv::image {

// NVIDIA_REQUIRE_CUDA exactly as NVIDIA's own nvidia/cuda images of the lock's CUDA line
// write it for the lock's platform (the matrix's nvidia_require_cuda.json), so the
// container runtime starts the image on the drivers it would start NVIDIA's on. For a line
// the matrix has no images of: "cuda>=MAJOR.MINOR" and, when the lock allows
// minor-version compatibility, one "brand=tesla,driver>=B,driver<B+1" term per data-center
// driver branch from that floor up to the toolkit's own driver.
std::string nvidia_require_cuda(const lock::Lockfile& lock, const matrix::Matrix& matrix);

// The labels an image of `lock` carries (config Labels, Dockerfile LABEL): the lock
// digest, the profile, framework, CUDA, cuDNN, NCCL, Python, driver floors, arch list;
// a fact the stack does not have gets no label.
std::map<std::string, std::string> image_labels(const lock::Lockfile& lock);

// The environment dlenv sets, in image order: NVIDIA_VISIBLE_DEVICES,
// NVIDIA_DRIVER_CAPABILITIES and NVIDIA_REQUIRE_CUDA.
std::vector<std::pair<std::string, std::string>> nvidia_environment(
    const lock::Lockfile& lock, const matrix::Matrix& matrix);

} // namespace dlenv::image
