#include "workflow/lock_profile.h"

#include "core/error.h"
#include "core/image_reference.h"
#include "core/json_reader.h"
#include "image/base_image.h"
#include "image/base_system.h"
#include "lock/framework_needs.h"
#include "lock/package_lock.h"
#include "lock/package_plan.h"
#include "lock/system_package_lock.h"
#include "oci/descriptor.h"
#include "registry/blob_transfer.h"
#include "registry/manifests.h"
#include "registry/platform.h"
#include "resolve/base_contents.h"
#include "resolve/framework_on_base.h"
#include "store/store.h"

namespace dlenv::workflow {
namespace {

// The base as its registry serves it now: what its tag names, and the image config of
// the manifest for the lock's platform.
struct ServedBase {
    registry::ResolvedImage image;
    nlohmann::json config;
};

ServedBase fetch_base(const lock::Lockfile& lockfile, const std::string& base, bool insecure)
{
    try {
        ImageReference reference = ImageReference::parse(base);
        std::unique_ptr<registry::Session> session = registry::open_session(reference, insecure);
        registry::ResolvedImage image
            = registry::resolve_image(*session, reference, registry::parse_platform(lockfile.base_image().platform));
        oci::Manifest manifest = oci::Manifest::parse(image.manifest.bytes, reference.text());
        std::string config = registry::get_config_blob(*session, reference.repository, manifest.config);
        return { std::move(image), JsonReader::parse_document(base + " config", config) };
    } catch (const Error& e) {
        throw Error(e.code(), e.message(),
            e.hint().empty() ? "pass --offline to lock without pinning the base image"
                             : e.hint()
                    + "; or pass --offline to lock without pinning "
                      "the base image")
            .with_context("pin base image " + base);
    }
}

// Pins the lock's base to what its tag names now: the tag's digest and the image manifest
// for the lock's platform, so every later build pulls exactly that, with what its config
// says it carries. Returns those contents; nullopt for a base no registry serves.
std::optional<resolve::BaseContents> pin_base_image(
    lock::Lockfile& lockfile, const matrix::Matrix& matrix, bool insecure)
{
    std::string base = lockfile.base_image().reference;
    if (!is_registry_reference(base))
        return std::nullopt;
    ServedBase served = fetch_base(lockfile, base, insecure);
    resolve::BaseDescription description = resolve::describe_config(base, served.config);
    resolve::BaseContents contents = resolve::base_contents_of(description, matrix);
    lockfile.pin_base(served.image.digest, served.image.manifest.digest, lock::base_carries_of(description, contents));
    return contents;
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

// The base's os-release and dpkg status, from its layers once it is in the store (a
// registry base by the manifest the lock just pinned). The store is held only meanwhile.
lock::BaseSystem read_base_system(const lock::Lockfile& lockfile, const LockRequest& request)
{
    const std::string& reference = lockfile.base_image().reference;
    try {
        store::Store store = store::Store::open_for_writing(request.store_dir);
        image::BaseSource source = image::locate_base(reference, lockfile.base_image().manifest, request.store_dir);
        std::optional<oci::Descriptor> manifest = image::import_base(source, store, request.insecure);
        if (!manifest)
            return {};
        oci::Manifest parsed = oci::Manifest::parse(store.layout().read_blob(*manifest), reference);
        return image::read_base_filesystem(store.layout(), parsed.layers).system;
    } catch (const Error& e) {
        throw e.with_context("read base image " + reference);
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
    std::optional<resolve::BaseContents> base;
    if (!request.offline)
        base = pin_base_image(lockfile, matrix, request.insecure);
    if (!request.offline || request.sources.wheelhouse)
        lockfile.set_packages(lock_closure(profile, stack, sources, request.progress));
    if (!request.offline && !profile.system_packages.empty())
        lockfile.set_system_packages(
            lock::lock_system_packages(profile, read_base_system(lockfile, request), request.progress.reading));
    if (base) {
        // after the closure: which CUDA libraries the framework loads from wheels decides
        std::vector<Finding> findings
            = resolve::check_framework_on_base(*base, lock::framework_needs(lockfile), matrix);
        std::vector<Finding>& reported = result.resolution.report.findings;
        reported.insert(reported.end(), findings.begin(), findings.end());
        if (worst_verdict(findings) == Verdict::fail) {
            result.path.clear();
            return result;
        }
        lockfile.add_warnings(findings);
    }
    lockfile.write(result.path);
    result.lockfile = std::move(lockfile);
    return result;
}

} // namespace dlenv::workflow
