#include "verify/promises.h"

#include "lock/framework_needs.h"

#include <algorithm>

namespace dlenv::verify {
namespace {

std::string promiser(const lock::Lockfile& lock, const std::string& component, const std::optional<std::string>& origin)
{
    return "base " + lock.base_image().reference + " (" + component + (origin ? ", " + *origin : std::string()) + ")";
}

void add_base_libraries(const lock::Lockfile& lock, const resolve::BaseContents& base, Promises& promises)
{
    for (const auto& library : base.libraries) {
        std::optional<std::string> version, origin;
        if (library.version) {
            version = library.version->value;
            origin = library.version->origin;
        }
        promises.libraries.push_back({ library.soname, version, promiser(lock, library.component, origin) });
    }
}

// A PTX-only architecture is compiled when the framework starts on it: the driver JITs,
// and frameworks compile their own kernels with NVRTC and link them with nvJitLink.
void add_jit_libraries(
    const lock::Lockfile& lock, const resolve::BaseContents& base, const matrix::Matrix& matrix, Promises& promises)
{
    if (lock.stack().ptx.empty() || !base.cuda)
        return;
    const matrix::CudaComponents* components = matrix.cuda_components(base.cuda->value);
    if (!components)
        return;
    std::string table = "cuda_components.json (CUDA " + components->cuda.text() + "), for PTX JIT";
    for (const auto& library : components->libraries) {
        if (library.component != "cuda_nvrtc" && library.component != "libnvjitlink")
            continue;
        for (const auto& file : library.files)
            if (std::none_of(promises.libraries.begin(), promises.libraries.end(),
                    [&](const PromisedLibrary& promised) { return promised.soname == file.soname; }))
                promises.libraries.push_back({ file.soname, library.version, promiser(lock, library.name, table) });
    }
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
        for (const auto& also : lock.stack().also)
            if (promised.name == also.name)
                promises.also.push_back(promised.name);
        promises.packages.push_back(std::move(promised));
    }
}

} // namespace

Promises promises_of(const lock::Lockfile& lock, const resolve::BaseContents& base, const matrix::Matrix& matrix)
{
    Promises promises;
    promises.files = lock.image().files;
    promises.framework_name = lock.stack().framework;
    add_base_libraries(lock, base, promises);
    add_jit_libraries(lock, base, matrix, promises);
    add_packages(lock, promises);
    promises.base = resolve::check_framework_on_base(base, lock::framework_needs(lock), matrix);
    return promises;
}

} // namespace dlenv::verify
