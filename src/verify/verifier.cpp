#include "verify/verifier.h"

#include "core/error.h"
#include "core/time_text.h"
#include "host/gpu_probe.h"
#include "store/staging.h"
#include "store/store.h"
#include "store/verifications.h"
#include "verify/engine.h"
#include "verify/gpu_tier.h"
#include "verify/image_platform.h"
#include "verify/static_checks.h"
#include "verify/static_tier.h"
#include "verify/unpack.h"

#include <sys/utsname.h>

#include <algorithm>

namespace dlenv::verify {
namespace {

HostFacts host_facts()
{
    HostFacts host;
    struct utsname name { };
    if (::uname(&name) == 0) {
        host.kernel = name.release;
        host.node = name.nodename;
    }
    if (auto driver = host::probe_driver()) {
        host.driver = driver->driver;
        for (const auto& gpu : driver->gpus) {
            host.gpus.push_back(gpu.name);
            host.gpu_uuids.push_back(gpu.uuid);
        }
    }
    return host;
}

void check_tiers(const std::vector<std::string>& tiers)
{
    for (const auto& tier : tiers)
        if (tier != k_tier_static && tier != k_tier_gpu && tier != k_tier_framework && tier != k_tier_acceptance)
            throw Error(ErrorCode::invalid_input, "unknown tier \"" + tier + "\"",
                "tiers are static, gpu, framework (all: these three) and acceptance");
}

std::vector<std::string> lock_tiers(const std::optional<lock::Lockfile>& lock)
{
    std::vector<std::string> tiers;
    if (lock)
        tiers = lock->validation().tiers;
    return tiers.empty() ? std::vector<std::string> { std::string(k_tier_static) } : tiers;
}

oci::Descriptor find_image(const store::Store& store, const VerifyRequest& request)
{
    const store::ImageRecord& record = store.records().at(request.name);
    auto found = record.tags.find(request.tag);
    if (found == record.tags.end())
        throw Error(ErrorCode::not_found, request.name + " has no tag \"" + request.tag + "\"",
            "`dlenv images` lists the tags of each image");
    return found->second;
}

bool asks_for(const std::vector<std::string>& tiers, std::string_view tier)
{
    return std::find(tiers.begin(), tiers.end(), tier) != tiers.end();
}

void record(const VerifyRequest& request, const Report& report)
{
    std::vector<store::TierVerification> tiers;
    for (const auto& tier : report.tiers)
        tiers.push_back({ tier.tier, tier.passed(), report.time, report.tier_json(tier) });
    store::Store store = store::Store::open_for_writing(request.store_dir);
    store::record_verification(store, Digest::parse(report.digest), tiers);
}

} // namespace

Report verify_image(const VerifyRequest& request)
{
    check_tiers(request.tiers);
    Report report;
    report.name = request.name;
    report.host = host_facts();
    bool gpu_only = !request.tiers.empty() && !asks_for(request.tiers, k_tier_static);
    if (gpu_only && !asks_for(request.tiers, k_tier_acceptance) && !report.host.driver)
        throw Error(ErrorCode::environment, "the " + request.tiers.front() + " tier cannot run: " + no_gpu_reason());
    Runtime runtime = select_runtime(request.runtime);
    report.runtime = runtime.name;

    // In the store's staging, so that what a killed verify leaves is found and removed.
    std::optional<store::StagingDir> work;
    UnpackFigures unpacked;
    std::optional<EngineImage> in_engine; // the file checks still read the unpacked rootfs
    StoredImage image = [&] {
        store::Store store = store::Store::open(request.store_dir);
        store::remove_abandoned_staging(store);
        oci::Descriptor found = platform_image(store.layout(), find_image(store, request), request.platform);
        try {
            StoredImage read = read_image(store.layout(), found);
            work.emplace(store, "verify-");
            unpacked = unpack_image(store.layout(), read, work->path() / "rootfs");
            if (runtime.is_engine()) {
                in_engine.emplace(
                    runtime, store.layout(), read.descriptor, read.manifest.config.digest.text(), work->path());
                runtime.image = in_engine->id();
            }
            return read;
        } catch (const Error& e) {
            // Its blobs are named by digest only: say which image they belong to.
            throw e.with_context("image " + request.name + ":" + request.tag);
        }
    }(); // the shared lock is released here: checks and runs need no store
    report.digest = image.descriptor.digest.text();

    ContainerContext context { runtime, work->path() / "rootfs", work->path() / "runs", image.process,
        request.timeout_seconds };
    std::optional<lock::Lockfile> lock;
    if (gpu_only) {
        std::vector<Finding> unreported; // the static tier's to report
        lock = check_kit_lock(context.rootfs, image.manifest, unreported);
    } else {
        TierReport tier = run_static_tier(image, context, lock);
        double mb = static_cast<double>(unpacked.layer_bytes) / 1e6;
        tier.figures.insert(tier.figures.begin(),
            { { "unpack_seconds", unpacked.seconds, "s", std::nullopt },
                { "unpack_layer_megabytes", mb, "MB", std::nullopt },
                { "unpack_megabytes_per_second", unpacked.seconds > 0 ? mb / unpacked.seconds : 0, "MB/s",
                    std::nullopt } });
        report.tiers.push_back(std::move(tier));
    }
    if (lock) {
        report.lock_digest = lock->digest().text();
        report.thresholds = lock->validation().thresholds;
    }
    for (const auto& wanted : request.tiers.empty() ? lock_tiers(lock) : request.tiers) {
        if (wanted == k_tier_static)
            continue;
        if (std::string platform = image_platform(image.config); !platform.empty() && platform != host_platform()) {
            report.unavailable.emplace_back(
                wanted, "it runs the image, which is for " + platform + ", on " + host_platform());
            continue;
        }
        GpuTierResult result = wanted == k_tier_acceptance
            ? run_acceptance_tier(context, report.host, request.acceptance,
                acceptance_settings(request.acceptance, lock ? lock->validation().acceptance : std::nullopt),
                this_host())
            : run_gpu_tier(wanted, context, report.host, report.thresholds.value_or(lock::Thresholds {}), this_host());
        if (result.report)
            report.tiers.push_back(std::move(*result.report));
        if (!result.unavailable.empty())
            report.unavailable.emplace_back(wanted, result.unavailable);
    }
    report.time = rfc3339_utc(now_seconds());
    if (!report.tiers.empty())
        record(request, report);
    return report;
}

} // namespace dlenv::verify
