#include "verify/static_tier.h"

#include "verify/static_checks.h"

#include <chrono>

namespace dlenv::verify {

TierReport run_static_tier(
    const StoredImage& image, const ContainerContext& context, std::optional<lock::Lockfile>& lock)
{
    auto start = std::chrono::steady_clock::now();
    TierReport tier { "static", {}, {}, 0 };
    LibrarySearch search { context.rootfs, {}, system_library_dirs(context.rootfs) };
    if (auto path = env_value(image.process.env, "LD_LIBRARY_PATH"))
        for (std::size_t begin = 0, colon = 0; colon != std::string::npos; begin = colon + 1) {
            colon = path->find(':', begin);
            std::string dir = path->substr(begin, colon == std::string::npos ? std::string::npos : colon - begin);
            if (!dir.empty())
                search.ld_library_path.push_back(dir);
        }

    lock = check_kit_lock(context.rootfs, image.manifest, tier.findings);
    Promises promises;
    if (lock) {
        promises = promises_of(*lock);
        check_files(context.rootfs, promises.files, tier.findings);
        check_libraries(search, promises.libraries, tier.findings);
        if (promises.cuda_version)
            check_cuda_version(context.rootfs, *promises.cuda_version, tier.findings);
        check_packages(context.rootfs, promises.packages, tier.findings);
    }
    std::optional<std::string> program = check_entrypoint(search, image.process, tier.findings);
    // The start check speaks shell; an entrypoint in another language is started by /bin/sh.
    std::optional<std::string> shell
        = program && program->ends_with("sh") ? program : find_program(context.rootfs, image.process.env, "/bin/sh");
    check_container_start(context, shell, tier.findings, tier.figures);
    if (lock)
        check_framework_import(context, promises, tier.findings);
    tier.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return tier;
}

} // namespace dlenv::verify
