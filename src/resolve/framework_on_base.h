#pragma once

#include "core/finding.h"
#include "core/version.h"
#include "matrix/matrix.h"
#include "resolve/base_contents.h"

#include <optional>
#include <string>
#include <vector>

namespace dlenv::resolve {

// Where a framework loads a CUDA library from: a pip wheel its lock pins
// (nvidia-cudnn-cu12, nvidia-nccl-cu12, nvidia-cuda-runtime-cu12; CUDA 13's drop the
// suffix), or else the base image.
struct LibrarySources {
    bool known = false; // the lock pins its packages; else which wheels it gets is not known
    std::optional<std::string> cuda_runtime; // the wheel that brings libcudart, if one does
    std::optional<std::string> cudnn;
    std::optional<std::string> nccl;
};

// The wheels among `packages` (normalised names) that bring CUDA libraries; nullopt: the
// lock pins no packages.
LibrarySources library_sources_of(const std::optional<std::vector<std::string>>& packages);

// The framework a lock pins, as the base must serve it.
struct FrameworkNeeds {
    std::string name; // "torch"
    CudaVersion cuda; // the CUDA it was built with: 12.1.1
    std::optional<CudnnVersion> cudnn; // the cuDNN it was built with
    std::optional<NcclVersion> nccl; // the NCCL it was built with
    LibrarySources sources;
};

// How the framework fits the base, one finding each, codes:
//   base-cuda   the base's CUDA against the framework's build: the same major is needed to
//               load the base's libraries (sonames carry it); a later minor or update of
//               the line runs (backward compatibility); an earlier minor is a warning. A
//               framework whose CUDA runtime comes from a wheel is told the base's CUDA is
//               not the one it loads (a warning when the majors differ).
//   base-cudnn  where the framework loads the base's cuDNN: the same major and at least
//               the build's version; where it loads a wheel's, that the base's is not used.
//               Where the lock pins no packages, an older cuDNN of the major is a warning:
//               the framework's wheels may bring their own.
//   base-nccl   the same for NCCL, whose 2.x releases load as libnccl.so.2: an older one
//               than the build's is a warning (its features may be missing), not a failure.
// A base that carries no CUDA gives no findings.
std::vector<Finding> check_framework_on_base(
    const BaseContents& base, const FrameworkNeeds& framework, const matrix::Matrix& matrix);

} // namespace dlenv::resolve
