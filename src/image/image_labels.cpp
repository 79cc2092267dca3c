#include "image/image_labels.h"

#include "core/version.h"

#include <algorithm>

namespace dlenv::image {
namespace {

template <typename Version> std::string text_or_empty(const std::optional<Version>& version)
{
    return version ? version->text() : std::string();
}

std::string joined(const std::vector<ComputeCapability>& list)
{
    std::string out;
    for (const auto& item : list)
        out += (out.empty() ? "" : " ") + item.text();
    return out;
}

// For a CUDA line whose NVIDIA images the matrix does not know: "cuda>=X.Y" and, when the
// lock allows minor-version compatibility, one data-center term per driver branch from
// that floor up to the toolkit's own driver.
std::string derived_require_cuda(const lock::LockedStack& stack, const matrix::Matrix& matrix)
{
    std::string out = "cuda>=" + stack.cuda.truncated(2).text();
    if (!stack.minor_version_driver)
        return out;
    std::uint32_t lowest = stack.minor_version_driver->major();
    std::uint32_t toolkit = stack.toolkit_driver.major();
    std::vector<std::uint32_t> branches;
    for (const auto& branch : matrix.driver_branches())
        if (branch.branch >= lowest && branch.branch < toolkit)
            branches.push_back(branch.branch);
    std::sort(branches.begin(), branches.end());
    for (std::uint32_t branch : branches)
        out += " brand=tesla,driver>=" + std::to_string(branch) + ",driver<" + std::to_string(branch + 1);
    return out;
}

} // namespace

std::string nvidia_require_cuda(const lock::Lockfile& lock, const matrix::Matrix& matrix)
{
    const lock::LockedStack& stack = lock.stack();
    const std::string& platform = lock.base_image().platform;
    std::string architecture = platform.substr(platform.find('/') + 1);
    if (const matrix::NvidiaImageRelease* release = matrix.nvidia_image_release(stack.cuda))
        if (const matrix::NvidiaRequireCuda* value = release->require_cuda_for(architecture))
            return value->value;
    return derived_require_cuda(stack, matrix);
}

std::map<std::string, std::string> image_labels(const lock::Lockfile& lock)
{
    const lock::LockedStack& stack = lock.stack();
    std::map<std::string, std::string> labels = {
        { "org.opencontainers.image.title", lock.profile().name },
        { "dev.dlenv.lock.digest", lock.digest().text() },
        { "dev.dlenv.framework", stack.framework + " " + stack.framework_version },
        { "dev.dlenv.cuda", stack.cuda.text() },
        { "dev.dlenv.cudnn", text_or_empty(stack.cudnn) },
        { "dev.dlenv.nccl", text_or_empty(stack.nccl) },
        { "dev.dlenv.python", stack.python.text() },
        { "dev.dlenv.driver.min", stack.toolkit_driver.text() },
        { "dev.dlenv.driver.minor_version_min", text_or_empty(stack.minor_version_driver) },
        { "dev.dlenv.arch_list", joined(stack.arch_list) },
    };
    std::erase_if(labels, [](const auto& label) { return label.second.empty(); }); // facts the stack lacks
    return labels;
}

std::vector<std::pair<std::string, std::string>> nvidia_environment(
    const lock::Lockfile& lock, const matrix::Matrix& matrix)
{
    return { { "NVIDIA_VISIBLE_DEVICES", "all" }, { "NVIDIA_DRIVER_CAPABILITIES", "compute,utility" },
        { "NVIDIA_REQUIRE_CUDA", nvidia_require_cuda(lock, matrix) } };
}

} // namespace dlenv::image
