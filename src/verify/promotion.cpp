#include "verify/promotion.h"

#include "core/error.h"
#include "rootfs/dlenv_files.h"
#include "store/blob_check.h"
#include "store/staging.h"
#include "store/tags.h"
#include "store/verifications.h"
#include "verify/image.h"
#include "verify/image_platform.h"
#include "verify/static_checks.h"
#include "verify/unpack.h"

#include <algorithm>
#include <functional>

namespace dlenv::verify {
namespace {

// The lock in the image's kit layer (the last one dlenv build writes), checked against
// the manifest's annotation like the static tier does.
lock::Lockfile lock_of(const store::Store& store, const StoredImage& image)
{
    if (image.manifest.layers.empty())
        throw Error(ErrorCode::verification_failed, "image " + image.descriptor.digest.short_text() + " has no layers");
    store::StagingDir work(store, "promote-");
    StoredImage kit = image;
    kit.manifest.layers = { image.manifest.layers.back() };
    unpack_image(store.layout(), kit, work.path() / "kit");
    std::vector<Finding> findings;
    auto lock = check_kit_lock(work.path() / "kit", image.manifest, findings);
    if (!lock || findings.front().verdict != Verdict::ok)
        throw Error(ErrorCode::verification_failed,
            "cannot tell which tiers image " + image.descriptor.digest.short_text()
                + " needs: " + findings.front().message,
            "build the image with `dlenv build`, which adds the lock in " + std::string(rootfs::k_dlenv_dir));
    return *lock;
}

// A pass on record says nothing about blobs that went missing or bad since: production
// must never point at an image that cannot be pulled or unpacked whole.
void check_blobs(const store::Store& store, const std::string& name, const oci::Descriptor& image)
{
    store::BlobTally tally;
    std::vector<std::string> damaged = store::damaged_blobs(store.layout(), image, tally);
    if (damaged.empty())
        return;
    std::string message = name + ":latest cannot be promoted: " + damaged.front();
    for (std::size_t i = 1; i < damaged.size(); ++i)
        message += "; " + damaged[i];
    throw Error(ErrorCode::verification_failed, message,
        "build or pull the image again (the same digest keeps its verifications), then promote it; `dlenv fsck` "
        "lists every damaged blob");
}

std::string hint_for(const std::string& name, const std::string& tier, const std::string& platform)
{
    return "run `dlenv verify " + name + " --tier " + tier + (platform.empty() ? "" : " --platform " + platform) + "`"
        + (tier == "static" ? "" : " on a GPU machine");
}

using RecordOf = std::function<store::Verification(const Digest& image)>;

// The problems of one image of latest (latest itself, or one platform's of its index)
// against the tiers its lock requires.
void check_image(const std::string& name, const oci::Descriptor& image, const RecordOf& record_of,
    const std::string& where, PromotionCheck& check)
{
    const std::string platform = platform_text(image);
    store::Verification record = record_of(image.digest);
    std::string digest = image.digest.short_text() + (platform.empty() ? "" : " (" + platform + ")")
        + (where.empty() ? "" : " " + where);
    for (const auto& tier : check.required) {
        auto found = record.tiers.find(tier);
        if (found == record.tiers.end())
            check.problems.push_back(
                "no passing `" + tier + "` verification for " + digest + " (" + hint_for(name, tier, platform) + ")");
        else if (!found->second.passed)
            check.problems.push_back("the `" + tier + "` verification of " + digest + " failed at " + found->second.time
                + " (fix the image, build it and " + hint_for(name, tier, platform) + ")");
    }
}

// Each image of latest must pass what the lock requires: an image built for several
// platforms is promoted once every platform's image passed.
PromotionCheck check_against(
    const store::Store& store, const std::string& name, const RecordOf& record_of, const std::string& where)
{
    auto latest = store.find(name, std::string(store::k_latest));
    store.records().at(name); // an unknown name: Error(not_found) with the closest names
    if (!latest)
        throw Error(ErrorCode::not_found, name + " has no latest image", "build it with `dlenv build`");
    check_blobs(store, name, *latest);
    PromotionCheck check { *latest, {}, {}, {} };
    const std::vector<oci::Descriptor> images = platform_images(store.layout(), *latest);
    lock::Lockfile lock = lock_of(store, read_image(store.layout(), images.front()));
    check.required = lock.validation().tiers;
    for (const auto& gpu : lock.stack().gpus)
        check.gpu_models.push_back(gpu.name);
    for (const oci::Descriptor& image : images)
        check_image(name, image, record_of, where, check);
    return check;
}

} // namespace

PromotionCheck check_promotion(const store::Store& store, const std::string& name)
{
    return check_against(
        store, name, [&store](const Digest& image) { return store::read_verification(store, image); }, "");
}

PromotionCheck check_promotion(const store::Store& store, const std::string& name,
    const std::vector<store::Verification>& records, const std::string& where)
{
    auto record_of = [&records](const Digest& image) {
        auto found = std::find_if(records.begin(), records.end(),
            [&image](const store::Verification& record) { return record.image == image; });
        return found == records.end() ? store::Verification { image, {} } : *found;
    };
    return check_against(store, name, record_of, where);
}

} // namespace dlenv::verify
