#include "resolve/image_require_cuda.h"

#include <algorithm>
#include <vector>

namespace dlenv::resolve {
namespace {

// For a line NVIDIA ships no image of in the matrix: the line's own toolkit driver, and
// under minor-version compatibility the older data-center branches from its floor.
ImageRequireCuda derived_require_cuda(const matrix::Matrix& matrix, const CudaVersion& cuda)
{
    const std::string line = cuda.truncated(2).text();
    ImageRequireCuda out { "cuda>=" + line,
        "derived by dlenv from CUDA " + line
            + "'s driver floors: the matrix has no "
              "NVIDIA image of that line",
        "" };
    const auto* toolkit = matrix.first_toolkit(cuda);
    const auto* floor = matrix.minor_version_floor(cuda.major());
    if (!toolkit || !floor) {
        out.source = toolkit ? toolkit->provenance.cite() : "";
        return out;
    }
    std::vector<std::uint32_t> branches;
    for (const auto& branch : matrix.driver_branches())
        if (branch.branch >= floor->driver_linux.major() && branch.branch < toolkit->driver_linux->major())
            branches.push_back(branch.branch);
    std::sort(branches.begin(), branches.end());
    for (std::uint32_t branch : branches)
        out.value += " brand=tesla,driver>=" + std::to_string(branch) + ",driver<" + std::to_string(branch + 1);
    out.source = toolkit->provenance.cite_with(floor->provenance);
    return out;
}

} // namespace

ImageRequireCuda image_require_cuda(
    const matrix::Matrix& matrix, const CudaVersion& cuda, std::string_view architecture)
{
    if (const matrix::NvidiaImageRelease* release = matrix.nvidia_image_release(cuda))
        if (const matrix::NvidiaRequireCuda* value = release->require_cuda_for(architecture))
            return { value->value,
                "NVIDIA's, of its CUDA " + release->cuda.text() + " images for " + std::string(architecture),
                value->provenance.cite() };
    return derived_require_cuda(matrix, cuda);
}

} // namespace dlenv::resolve
