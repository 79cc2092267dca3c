#include "verify/static_tier.h"

#include "verify/image_platform.h"
#include "verify/import_checks.h"
#include "verify/static_checks.h"

#include "core/error.h"
#include "core/file.h"
#include "rootfs/lookup.h"

#include <algorithm>
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
    // An image of a multi-platform lock is held to that platform's packages; one for
    // another machine is read, never run here.
    std::string platform = image_platform(image.config);
    std::vector<std::string> locked = lock ? lock->platforms() : std::vector<std::string> {};
    if (std::find(locked.begin(), locked.end(), platform) != locked.end())
        lock = lock->for_platform(platform);
    bool runs_here = platform.empty() || platform == host_platform();
    std::string not_run = "not run: the image is for " + platform + " and this machine is " + host_platform()
        + "; its files and ELF closures were read instead";
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
    if (runs_here)
        check_container_start(context, shell, tier.findings, tier.figures);
    else
        tier.findings.push_back({ "container-start", Verdict::unknown, not_run });
    if (lock && runs_here)
        check_package_imports(context, promises, tier.findings);
    else if (lock)
        tier.findings.push_back({ "framework-import", Verdict::unknown, not_run });
    tier.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return tier;
}

} // namespace dlenv::verify
