#include "verify/static_checks.h"

#include "core/error.h"
#include "core/file.h"
#include "core/sha256.h"
#include "rootfs/dlenv_files.h"
#include "rootfs/lookup.h"

namespace dlenv::verify {
namespace {

constexpr const char* k_lock_annotation = "dev.dlenv.lock.digest";

} // namespace

std::optional<lock::Lockfile> check_kit_lock(
    const std::filesystem::path& rootfs, const oci::Manifest& manifest, std::vector<Finding>& findings)
{
    const std::string lock_file(rootfs::k_lock_file);
    auto host = rootfs::lookup(rootfs, lock_file);
    std::error_code ec;
    if (!host || !std::filesystem::is_regular_file(*host, ec)) {
        findings.push_back(
            { "kit-lock", Verdict::fail, lock_file + " is missing: the image was not built by dlenv build" });
        return std::nullopt;
    }
    std::optional<lock::Lockfile> lock;
    try {
        lock = lock::Lockfile::parse(lock_file, read_file(*host));
    } catch (const Error& e) {
        findings.push_back({ "kit-lock", Verdict::fail, e.message() });
        return std::nullopt;
    }
    auto annotation = manifest.annotations.find(k_lock_annotation);
    if (annotation == manifest.annotations.end())
        findings.push_back({ "kit-lock", Verdict::fail,
            std::string("the manifest has no ") + k_lock_annotation + " annotation to check " + lock_file
                + " against" });
    else if (annotation->second != lock->digest().text())
        findings.push_back({ "kit-lock", Verdict::fail,
            lock_file + " is lock " + lock->digest().text() + ", the image was built from " + annotation->second });
    else
        findings.push_back({ "kit-lock", Verdict::ok,
            lock_file + " is the lock the image was built from (" + lock->digest().text() + ")" });
    return lock;
}

void check_files(
    const std::filesystem::path& rootfs, const std::vector<lock::LockedFile>& files, std::vector<Finding>& findings)
{
    for (const auto& file : files) {
        auto host = rootfs::lookup(rootfs, file.target);
        std::error_code ec;
        if (!host || !std::filesystem::is_regular_file(*host, ec)) {
            findings.push_back({ "file-sha256", Verdict::fail, file.target + " is missing" });
            continue;
        }
        std::string actual = sha256_file_hex(*host);
        if (actual != file.sha256)
            findings.push_back({ "file-sha256", Verdict::fail,
                file.target + " has sha256 " + actual + ", the lock pins " + file.sha256 });
        else
            findings.push_back({ "file-sha256", Verdict::ok, file.target + " has the pinned sha256 " + file.sha256 });
    }
}

} // namespace dlenv::verify
