#include "verify/promises.h"

#include "core/version.h"

#include <regex>

namespace dlenv::verify {
namespace {

std::string major_of(const std::string& version)
{
    return version.substr(0, version.find('.'));
}

// NVIDIA's CUDA images: [registry/]nvidia/cuda:VERSION[-cudnnN]-FLAVOUR-OS.
void add_cuda_base(const lock::Lockfile& lock, Promises& promises)
{
    static const std::regex cuda_image(
        R"(^(?:[^/]+/)?nvidia/cuda:([0-9.]+)-(?:(cudnn[0-9]*)-)?(base|runtime|devel)-.*$)");
    const std::string& reference = lock.base_image().reference;
    std::smatch m;
    if (!std::regex_match(reference, m, cuda_image))
        return;
    const lock::LockedStack& stack = lock.stack();
    std::string cuda = stack.cuda.text();
    std::string why = "base " + reference;
    promises.cuda_version = cuda;
    promises.libraries.push_back({ cudart_soname(cuda), cuda, why });
    if (m[3] != "base")
        promises.libraries.push_back({ "libcublas.so." + major_of(cuda), cuda, why });
    if (m[2].matched && stack.cudnn)
        promises.libraries.push_back(
            { "libcudnn.so." + std::to_string(stack.cudnn->major()), stack.cudnn->text(), why });
}

void add_packages(const lock::Lockfile& lock, Promises& promises)
{
    const auto& packages = lock.packages();
    if (!packages)
        return;
    for (const auto& package : *packages) {
        PromisedPackage promised { package.name, package.version };
        if (promised.name == promises.framework_name)
            promises.framework = promised.name;
        promises.packages.push_back(std::move(promised));
    }
}

} // namespace

std::string cudart_soname(const std::string& cuda_version)
{
    CudaVersion version = CudaVersion::parse(cuda_version);
    if (version.major() >= 12)
        return "libcudart.so." + std::to_string(version.major());
    if (version.major() == 11)
        return "libcudart.so.11.0";
    return "libcudart.so." + std::to_string(version.major()) + "." + std::to_string(version.minor());
}

Promises promises_of(const lock::Lockfile& lock)
{
    Promises promises;
    promises.files = lock.image().files;
    promises.framework_name = lock.stack().framework;
    add_cuda_base(lock, promises);
    add_packages(lock, promises);
    return promises;
}

} // namespace dlenv::verify
