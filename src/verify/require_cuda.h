#pragma once

#include "core/version.h"
#include "matrix/matrix.h"

#include <optional>
#include <string>
#include <vector>

namespace dlenv::verify {

// The host as NVIDIA_REQUIRE_CUDA sees it.
struct DriverHost {
    DriverVersion driver;
    std::vector<std::string> brands; // "tesla" for datacenter GPUs, "geforce", ... (lowercase)
};

// Checks an image's NVIDIA_REQUIRE_CUDA ("cuda>=12.1 brand=tesla,driver>=470,driver<471")
// the way the NVIDIA container toolkit does: constraints joined by ',' must all hold,
// alternatives separated by spaces need one to hold. `cuda` is the newest CUDA the
// driver supports, from the matrix's toolkit driver floors. Returns nullopt when the
// image may start, else the refusal explained: the driver's CUDA, the floor the image
// needs and its source. Error(invalid_input) for a constraint it cannot read.
std::optional<std::string> refuse_require_cuda(
    const std::string& requirement, const DriverHost& host, const matrix::Matrix& matrix);

} // namespace dlenv::verify
