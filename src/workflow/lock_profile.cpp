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
#include "resolve/driver_branch.h"
#include "resolve/framework_on_base.h"
#include "resolve/python_runtime.h"
#include "store/store.h"

namespace dlenv::workflow {
namespace {

// The base as its registry serves it now: what its tag names, and the image config of
// the manifest for the lock's platform.
struct ServedBase {
    registry::ResolvedImage image;
    nlohmann::json config;
};

ServedBase fetch_base(const std::string& base, const std::string& platform, bool insecure)
{
    try {
        ImageReference reference = ImageReference::parse(base);
        std::unique_ptr<registry::Session> session = registry::open_session(reference, insecure);
        registry::ResolvedImage image
            = registry::resolve_image(*session, reference, registry::parse_platform(platform));
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
    ServedBase served = fetch_base(base, lockfile.base_image().platform, insecure);
    resolve::BaseDescription description = resolve::describe_config(base, served.config);
    resolve::BaseContents contents = resolve::base_contents_of(description, matrix);
    lockfile.pin_base(served.image.digest, served.image.manifest.digest, lock::base_carries_of(description, contents));
    return contents;
}

// A further platform's manifest comes from the index the lock's tag digest names: a base
// that is one image, or a tag that moved meanwhile, pins no consistent set.
void pin_platform_base(
    lock::Lockfile& lockfile, const std::string& platform, const matrix::Matrix& matrix, bool insecure)
{
    const std::string& base = lockfile.base_image().reference;
    ServedBase served = fetch_base(base, platform, insecure);
    if (!served.image.index)
        throw Error(ErrorCode::not_found, "pin base image " + base + ": it is one image, not an index with " + platform,
            "use a multi-platform base, or drop " + platform + " from the profile's platforms");
    if (served.image.digest != *lockfile.base_image().digest)
        throw Error(ErrorCode::conflict, "pin base image " + base + ": its tag moved while it was locked",
            "run `dlenv lock` again");
    resolve::BaseDescription description = resolve::describe_config(base, served.config);
    lockfile.pin_platform_base(platform, served.image.manifest.digest,
        lock::base_carries_of(description, resolve::base_contents_of(description, matrix)));
}

// The profile as it is for one of its platforms: that machine's wheels and runtime.
resolve::Profile profile_for(const resolve::Profile& profile, const std::string& platform)
{
    resolve::Profile out = profile;
    out.packages.machine = *resolve::platform_machine(platform);
    return out;
}

// What a profile of several platforms cannot have: one runtime archive for every
// machine, or system packages (their closure is resolved for the lock's own platform only).
void check_platforms(const resolve::Profile& profile)
{
    if (profile.platforms.size() < 2)
        return;
    const auto& runtime = profile.packages.python_runtime;
    if (runtime && !runtime->standalone)
        throw Error(ErrorCode::invalid_input,
            profile.file + ": packages.python_runtime: one archive cannot serve " + profile.platforms[0] + " and "
                + profile.platforms[1],
            "name the runtime by its Python (\"" + profile.python.text() + "\") so each platform gets its build");
    if (!profile.system_packages.empty())
        throw Error(ErrorCode::invalid_input,
            profile.file + ": system_packages: they are locked for one platform only, and the profile names "
                + std::to_string(profile.platforms.size()),
            "name one platform, or install them in the base image");
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

// The further platforms of a profile: each one's Python and, as for the lock's own,
// its base manifest and closure. A closure the indexes cannot give for a platform (torch
// publishes aarch64 CUDA wheels for some builds only) is bad input naming the platform.
void lock_other_platforms(lock::Lockfile& lockfile, const matrix::Matrix& matrix, const LockRequest& request,
    const resolve::Stack& stack, const lock::PackageSources& sources)
{
    for (std::size_t i = 1; i < request.profile.platforms.size(); ++i) {
        const std::string& platform = request.profile.platforms[i];
        resolve::Profile profile = profile_for(request.profile, platform);
        resolve::Stack platform_stack = stack;
        platform_stack.python_runtime = resolve::pin_python_runtime(matrix, profile);
        lockfile.add_platform(
            { platform, std::nullopt, std::nullopt, lock::python_environment(profile, platform_stack), std::nullopt });
        if (!request.offline && lockfile.base_image().digest)
            pin_platform_base(lockfile, platform, matrix, request.insecure);
        if (request.offline && !request.sources.wheelhouse)
            continue;
        try {
            lockfile.set_platform_packages(platform, lock_closure(profile, platform_stack, sources, request.progress));
        } catch (const Error& e) {
            ErrorCode code = e.code() == ErrorCode::conflict ? ErrorCode::invalid_input : e.code();
            throw Error(code, e.message(),
                code == ErrorCode::invalid_input ? "the indexes have no such wheel for " + platform
                        + "; drop it from the profile's platforms, "
                          "or pick a framework build published for it"
                                                 : e.hint())
                .with_context("lock the packages for " + platform);
        }
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
    if (request.host.driver_branch) // which release stands for the branch
        result.resolution.report.findings.insert(result.resolution.report.findings.begin(),
            resolve::branch_driver(matrix, *request.host.driver_branch).finding);
    if (!result.resolution.stack)
        return result;
    check_platforms(profile);
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
    lock_other_platforms(lockfile, matrix, request, stack, sources);
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
