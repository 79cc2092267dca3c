#include "workflow/image_diff.h"

#include <algorithm>

namespace dlenv::workflow {
namespace {

using Text = std::optional<std::string>;

void compare(std::vector<lock::FieldChange>& out, const std::string& field, const Text& before, const Text& after)
{
    if (before != after)
        out.push_back({ field, before, after });
}

Text digest_text(const std::optional<Digest>& digest)
{
    return digest ? Text(digest->text()) : std::nullopt;
}

std::vector<LayerChange> layer_changes(const ImageFacts& a, const ImageFacts& b)
{
    std::vector<LayerChange> out;
    for (std::size_t i = 0; i < std::max(a.layers.size(), b.layers.size()); ++i) {
        std::optional<LayerFacts> before = i < a.layers.size() ? std::optional(a.layers[i]) : std::nullopt;
        std::optional<LayerFacts> after = i < b.layers.size() ? std::optional(b.layers[i]) : std::nullopt;
        if (!before || !after || before->digest != after->digest)
            out.push_back({ i + 1, std::move(before), std::move(after) });
    }
    return out;
}

TierOutcome outcome_of(const ImageFacts& image, const std::string& tier)
{
    for (const auto& [name, outcome] : image.verifications)
        if (name == tier)
            return outcome;
    return TierOutcome::never;
}

// Each tier either side knows of, in the order of the first side's and then the second's.
std::vector<lock::FieldChange> verification_changes(const ImageFacts& a, const ImageFacts& b)
{
    std::vector<std::string> tiers;
    for (const auto* image : { &a, &b })
        for (const auto& [tier, outcome] : image->verifications)
            if (std::find(tiers.begin(), tiers.end(), tier) == tiers.end())
                tiers.push_back(tier);
    std::vector<lock::FieldChange> out;
    for (const auto& tier : tiers)
        compare(out, tier, std::string(tier_outcome_name(outcome_of(a, tier))),
            std::string(tier_outcome_name(outcome_of(b, tier))));
    return out;
}

} // namespace

std::size_t SideDiff::size() const
{
    return lock.size() + image.size() + (bytes ? 1 : 0) + layers.size() + verifications.size();
}

bool SideDiff::empty() const
{
    return size() == 0;
}

SideDiff diff_sides(const DiffSide& before, const DiffSide& after)
{
    SideDiff diff { lock::diff_locks(before.lock, after.lock), {}, std::nullopt, {}, {} };
    if (!before.image || !after.image)
        return diff;
    const ImageFacts& a = *before.image;
    const ImageFacts& b = *after.image;
    compare(diff.image, "digest", a.digest.text(), b.digest.text());
    compare(diff.image, "built on base", digest_text(a.base), digest_text(b.base));
    compare(diff.image, "layers", std::to_string(a.layers.size()), std::to_string(b.layers.size()));
    if (a.size() != b.size())
        diff.bytes = SizeChange { a.size(), b.size() };
    diff.layers = layer_changes(a, b);
    diff.verifications = verification_changes(a, b);
    return diff;
}

} // namespace dlenv::workflow
