#pragma once

#include "lock/lockfile.h"
#include "matrix/matrix.h"

#include <map>
#include <string>

namespace dlenv::image {

// The NVIDIA_REQUIRE_CUDA of an image of `lock`: resolve's image_require_cuda for the
// lock's CUDA and the architecture of its platform.
std::string nvidia_require_cuda(const lock::Lockfile& lock, const matrix::Matrix& matrix);

// The labels an image of `lock` carries (config Labels, manifest annotations, Dockerfile
// LABEL): the lock digest, the profile, framework, the frameworks beside it (stack.also),
// CUDA, cuDNN, NCCL, Python, driver floors, the framework's arch list; a fact the stack
// does not have gets no label, so a lock without `also` gives the labels it always did.
std::map<std::string, std::string> image_labels(const lock::Lockfile& lock);

// The environment dlenv sets, in image order: NVIDIA_VISIBLE_DEVICES,
// NVIDIA_DRIVER_CAPABILITIES and NVIDIA_REQUIRE_CUDA.
std::vector<std::pair<std::string, std::string>> nvidia_environment(
    const lock::Lockfile& lock, const matrix::Matrix& matrix);

} // namespace dlenv::image
