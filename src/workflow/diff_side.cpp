#include "workflow/diff_side.h"

#include "core/error.h"
#include "core/file.h"
#include "core/image_name.h"
#include "store/records.h"
#include "store/store.h"
#include "store/verifications.h"
#include "verify/image_platform.h"
#include "workflow/built_image.h"

#include <algorithm>
#include <array>
#include <numeric>

namespace dlenv::workflow {
namespace {

// NAME[:TAG] or NAME@DIGEST, as the text spells them; not yet checked.
struct ImageArgument {
    std::string name;
    std::string tag;
    std::optional<std::string> digest;

    std::string shown() const { return digest ? name + "@" + *digest : name + ":" + tag; }
};

ImageArgument image_argument(const std::string& text)
{
    if (std::size_t at = text.find('@'); at != std::string::npos)
        return { text.substr(0, at), "", text.substr(at + 1) };
    store::ImageTag tag = store::ImageTag::parse(text);
    return { tag.name, tag.tag, std::nullopt };
}

bool valid_name(const std::string& name)
{
    try {
        check_image_name(name);
        return true;
    } catch (const Error&) {
        return false;
    }
}

bool only_a_file(const std::string& text, const ImageArgument& image)
{
    return text.ends_with(".json") || text.ends_with(".lock") || text.starts_with("/") || text.starts_with("./")
        || text.starts_with("../") || !valid_name(image.name);
}

// The lock as a build for `platform` reads it; the whole lock (its first platform's view)
// for "".
lock::Lockfile seen_for(const lock::Lockfile& lock, const std::string& platform)
{
    return platform.empty() ? lock : lock.for_platform(platform);
}

DiffSide lock_side(const std::string& text, const std::string& platform)
{
    return { text, seen_for(lock::Lockfile::parse(text, read_file(text)), platform), std::nullopt };
}

// The tiers in the order they run, so a reviewer reads them so.
std::size_t tier_rank(const std::string& tier)
{
    const std::array<std::string_view, 4> order { "static", "gpu", "framework", "acceptance" };
    return static_cast<std::size_t>(std::find(order.begin(), order.end(), tier) - order.begin());
}

std::vector<std::pair<std::string, TierOutcome>> verifications_of(
    const store::Store& store, const Digest& digest, const lock::Lockfile& lock)
{
    std::map<std::string, TierOutcome> outcomes;
    for (const auto& tier : lock.validation().tiers)
        outcomes[tier] = TierOutcome::never;
    for (const auto& [tier, record] : store::read_verification(store, digest).tiers)
        outcomes[tier] = record.passed ? TierOutcome::passed : TierOutcome::failed;
    std::vector<std::pair<std::string, TierOutcome>> out(outcomes.begin(), outcomes.end());
    std::stable_sort(
        out.begin(), out.end(), [](const auto& a, const auto& b) { return tier_rank(a.first) < tier_rank(b.first); });
    return out;
}

DiffSide image_side(
    const store::Store& store, const std::string& text, const ImageArgument& argument, const std::string& platform)
{
    oci::Descriptor named = argument.digest ? find_digest(store, argument.name, Digest::parse(*argument.digest))
                                            : find_tag(store, argument.name, argument.tag);
    oci::Descriptor descriptor = verify::platform_image(store.layout(), named, platform);
    BuiltImage built = read_built_image(store, descriptor, argument.shown());
    ImageFacts facts { argument.name, descriptor.digest, built.base, {}, {} };
    std::vector<std::string> created_by = layer_history(built.image);
    for (std::size_t i = 0; i < built.image.manifest.layers.size(); ++i) {
        const oci::Descriptor& layer = built.image.manifest.layers[i];
        facts.layers.push_back({ layer.digest, layer.size, created_by[i] });
    }
    facts.verifications = verifications_of(store, descriptor.digest, built.lock);
    return { text, seen_for(built.lock, platform), std::move(facts) };
}

} // namespace

std::int64_t ImageFacts::size() const
{
    return std::accumulate(layers.begin(), layers.end(), std::int64_t(0),
        [](std::int64_t total, const LayerFacts& layer) { return total + layer.size; });
}

DiffSide read_diff_side(const std::filesystem::path& store_dir, const std::string& text, const std::string& platform)
{
    ImageArgument argument = image_argument(text);
    if (only_a_file(text, argument))
        return lock_side(text, platform);
    std::error_code ec;
    bool file = std::filesystem::exists(text, ec);
    bool has_store = std::filesystem::exists(store_dir / "oci-layout", ec);
    std::optional<store::Store> store;
    if (has_store)
        store.emplace(store::Store::open(store_dir));
    bool image = store && store->records().images.contains(argument.name);
    if (file && image)
        throw Error(ErrorCode::invalid_input,
            "\"" + text + "\" names both the file " + text + " and the image " + argument.name + " of the store "
                + store_dir.string(),
            "write ./" + text + " for the file, or move it away to compare the image");
    if (image)
        return image_side(*store, text, argument, platform);
    if (file)
        return lock_side(text, platform);
    throw Error(ErrorCode::not_found,
        "\"" + text + "\" is neither a file nor an image of the store " + store_dir.string(),
        "name a lock file, or an image `dlenv images` lists (NAME[:TAG] or NAME@sha256:...)");
}

std::string_view tier_outcome_name(TierOutcome outcome)
{
    switch (outcome) {
    case TierOutcome::passed:
        return "passed";
    case TierOutcome::failed:
        return "failed";
    case TierOutcome::never:
        return "not run";
    }
    return "not run";
}

} // namespace dlenv::workflow
