#pragma once

#include "core/version.h"
#include "matrix/matrix.h"

#include <string>
#include <string_view>

namespace dlenv::resolve {

// The architecture whose gate `check` asks: a lock pins the linux/amd64 image of its base
// unless its profile names other platforms (whose gates the matrix records alike).
constexpr std::string_view k_image_architecture = "amd64";

// The NVIDIA_REQUIRE_CUDA an image of a CUDA line carries, and where it comes from.
struct ImageRequireCuda {
    std::string value; // "cuda>=11.8 brand=tesla,driver>=470,driver<471 ..."
    std::string origin; // "NVIDIA's, of its CUDA 11.8.0 images for amd64"
    std::string source; // the URLs of the facts it rests on, " | "-joined
};

// NVIDIA_REQUIRE_CUDA exactly as NVIDIA's own nvidia/cuda images of `cuda`'s line write it
// for `architecture` ("amd64", "arm64"; the matrix's nvidia_require_cuda.json), so the
// container toolkit starts the image on the drivers it would start NVIDIA's on. For a line
// the matrix has no such image of: "cuda>=MAJOR.MINOR" and, when the major has a
// minor-version compatibility floor, one "brand=tesla,driver>=B,driver<B+1" term per
// data-center driver branch from that floor up to the line's toolkit driver.
ImageRequireCuda image_require_cuda(
    const matrix::Matrix& matrix, const CudaVersion& cuda, std::string_view architecture);

} // namespace dlenv::resolve
