#include "image/image_labels.h"

#include "core/version.h"
#include "resolve/image_require_cuda.h"

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

// "jax 0.4.31, tensorflow 2.17.0": the frameworks of stack.also, as dev.dlenv.framework names its own.
std::string also_text(const std::vector<lock::LockedFramework>& also)
{
    std::string out;
    for (const auto& framework : also)
        out += (out.empty() ? "" : ", ") + framework.name + " " + framework.version;
    return out;
}

} // namespace

std::string nvidia_require_cuda(const lock::Lockfile& lock, const matrix::Matrix& matrix)
{
    const std::string& platform = lock.base_image().platform;
    return resolve::image_require_cuda(matrix, lock.stack().cuda, platform.substr(platform.find('/') + 1)).value;
}

std::map<std::string, std::string> image_labels(const lock::Lockfile& lock)
{
    const lock::LockedStack& stack = lock.stack();
    std::map<std::string, std::string> labels = {
        { "org.opencontainers.image.title", lock.profile().name },
        { "dev.dlenv.lock.digest", lock.digest().text() },
        { "dev.dlenv.framework", stack.framework + " " + stack.framework_version },
        { "dev.dlenv.framework.also", also_text(stack.also) },
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
