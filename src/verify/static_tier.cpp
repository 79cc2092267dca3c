#include "verify/static_tier.h"

#include "verify/import_checks.h"
#include "verify/static_checks.h"

#include "core/error.h"
#include "core/file.h"
#include "rootfs/lookup.h"

#include <chrono>

namespace dlenv::verify {
namespace {

// A version.json larger than this is no component list: NVIDIA's is a few kilobytes.
constexpr std::uintmax_t k_version_json_max_bytes = 1 << 20;

// What the image's base says of itself: the config's Env and Labels (a dlenv image keeps
// the base's) and /usr/local/cuda/version.json; and the CUDA libraries the loader finds in it.
resolve::BaseDescription describe_base(
    const StoredImage& image, const LibrarySearch& search, const lock::Lockfile& lock, const matrix::Matrix& matrix)
{
    const std::filesystem::path& rootfs = search.root;
    resolve::BaseDescription base = resolve::describe_config(lock.base_image().reference, image.config);
    std::error_code ec;
    if (auto file = rootfs::lookup(rootfs, "/usr/local/cuda/version.json"); file
        && std::filesystem::is_regular_file(*file, ec)
        && std::filesystem::file_size(*file, ec) <= k_version_json_max_bytes && !ec)
        base.version_json = read_file(*file);
    for (const auto& soname : resolve::cuda_library_sonames(matrix))
        if (auto path = find_library(search, soname))
            if (auto real = rootfs::lookup(rootfs, *path))
                base.found.push_back({ soname, real->filename().string() });
    return base;
}

// The lock's promises, with what the base says; a base whose account of itself cannot be
// read fails the tier saying why, and promises nothing of its own.
Promises promise(
    const StoredImage& image, const LibrarySearch& search, const lock::Lockfile& lock, std::vector<Finding>& findings)
{
    const matrix::Matrix& matrix = matrix::Matrix::embedded();
    resolve::BaseContents base;
    try {
        base = resolve::base_contents_of(describe_base(image, search, lock, matrix), matrix);
    } catch (const Error& e) {
        findings.push_back({ "base-contents", Verdict::fail, e.message() });
    }
    return promises_of(lock, base, matrix);
}

} // namespace

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
        promises = promise(image, search, *lock, tier.findings);
        check_files(context.rootfs, promises.files, tier.findings);
        tier.findings.insert(tier.findings.end(), promises.base.begin(), promises.base.end());
        check_libraries(search, promises.libraries, tier.findings);
        check_packages(context.rootfs, promises.packages, tier.findings);
    }
    std::optional<std::string> program = check_entrypoint(search, image.process, tier.findings);
    // The start check speaks shell; an entrypoint in another language is started by /bin/sh.
    std::optional<std::string> shell
        = program && program->ends_with("sh") ? program : find_program(context.rootfs, image.process.env, "/bin/sh");
    check_container_start(context, shell, tier.findings, tier.figures);
    if (lock)
        check_package_imports(context, promises, tier.findings);
    tier.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return tier;
}

} // namespace dlenv::verify
