#include "workflow/lock_profile.h"

#include "core/error.h"
#include "core/image_reference.h"
#include "lock/package_lock.h"
#include "lock/package_plan.h"
#include "registry/manifests.h"
#include "registry/platform.h"

namespace dlenv::workflow {
namespace {

// Pins the lock's base to what its tag names now: the tag's digest and the image manifest
// for the lock's platform, so every later build pulls exactly that.
void pin_base_image(lock::Lockfile& lockfile, bool insecure)
{
    std::string base = lockfile.base_image().reference;
    if (!is_registry_reference(base))
        return;
    try {
        ImageReference reference = ImageReference::parse(base);
        std::unique_ptr<registry::Session> session = registry::open_session(reference, insecure);
        registry::ResolvedImage image
            = registry::resolve_image(*session, reference, registry::parse_platform(lockfile.base_image().platform));
        lockfile.pin_base(image.digest, image.manifest.digest);
    } catch (const Error& e) {
        throw Error(e.code(), e.message(),
            e.hint().empty() ? "pass --offline to lock without pinning the base image"
                             : e.hint()
                    + "; or pass --offline to lock without pinning "
                      "the base image")
            .with_context("pin base image " + base);
    }
}

std::vector<lock::LockedPackage> lock_closure(const resolve::Profile& profile, const resolve::Stack& stack,
    const lock::PackageSources& sources, const PackageProgress& progress)
{
    auto finish = [&progress] {
        if (progress.finished)
            progress.finished();
    };
    try {
        std::vector<lock::LockedPackage> packages
            = lock::lock_packages(lock::package_request(profile, stack), sources, progress.reading);
        finish();
        return packages;
    } catch (...) {
        finish();
        throw;
    }
}

} // namespace

LockResult lock_profile(const matrix::Matrix& matrix, const LockRequest& request)
{
    const resolve::Profile& profile = request.profile;
    HostFacts host = host_facts(request.host, matrix);
    LockResult result { resolve::resolve_profile(matrix, profile, host), "", std::nullopt };
    if (!result.resolution.stack)
        return result;
    const resolve::Stack& stack = *result.resolution.stack;
    result.path = request.output.empty() ? "lockfiles/" + profile.name + ".lock.json" : request.output;
    lock::PackageSources sources = requested_sources(request.sources, profile, stack);
    lock::Lockfile lockfile = lock::Lockfile::from_stack(
        profile, matrix.sha256(), host, stack, result.resolution.report, sources, result.path, request.files_root);
    if (!request.offline)
        pin_base_image(lockfile, request.insecure);
    if (!request.offline || request.sources.wheelhouse)
        lockfile.set_packages(lock_closure(profile, stack, sources, request.progress));
    lockfile.write(result.path);
    result.lockfile = std::move(lockfile);
    return result;
}

} // namespace dlenv::workflow
