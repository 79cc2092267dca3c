#include "cli/commands.h"

#include "cli/diff_markdown.h"
#include "cli/diff_summary.h"
#include "cli/output.h"
#include "cli/store_output.h"
#include "workflow/diff_side.h"
#include "workflow/image_diff.h"

#include <iostream>
#include <memory>

namespace dlenv::cli {
namespace {

struct DiffArgs {
    std::string before;
    std::string after;
    std::string platform;
};

nlohmann::json text_json(const std::optional<std::string>& text)
{
    return text ? nlohmann::json(*text) : nullptr;
}

nlohmann::json fields_json(const std::vector<lock::FieldChange>& changes)
{
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& change : changes)
        rows.push_back({ { "field", change.field }, { "before", text_json(change.before) },
            { "after", text_json(change.after) } });
    return rows;
}

nlohmann::json pin_json(const std::optional<lock::PinnedVersion>& pin)
{
    return pin ? nlohmann::json { { "version", pin->version }, { "sha256", pin->sha256 } } : nlohmann::json(nullptr);
}

nlohmann::json packages_json(const std::vector<lock::PackageChange>& changes)
{
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& change : changes)
        rows.push_back({ { "name", change.name }, { "change", lock::package_change_name(change.kind()) },
            { "before", pin_json(change.before) }, { "after", pin_json(change.after) } });
    return rows;
}

nlohmann::json layer_json(const std::optional<workflow::LayerFacts>& layer)
{
    if (!layer)
        return nullptr;
    return { { "digest", layer->digest.text() }, { "size", layer->size }, { "created_by", layer->created_by } };
}

nlohmann::json layers_json(const std::vector<workflow::LayerChange>& changes)
{
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& change : changes)
        rows.push_back({ { "layer", change.position }, { "before", layer_json(change.before) },
            { "after", layer_json(change.after) } });
    return rows;
}

// What a side is: a lock by its digest, or an image with what only it knows.
nlohmann::json side_json(const workflow::DiffSide& side)
{
    nlohmann::json out { { "argument", side.shown }, { "lock", side.lock.digest().text() } };
    if (!side.image) {
        out["kind"] = "lock";
        return out;
    }
    const workflow::ImageFacts& image = *side.image;
    nlohmann::json verifications = nlohmann::json::object();
    for (const auto& [tier, outcome] : image.verifications)
        verifications[tier] = workflow::tier_outcome_name(outcome);
    out.update({ { "kind", "image" }, { "name", image.name }, { "digest", image.digest.text() },
        { "base", image.base ? nlohmann::json(image.base->text()) : nlohmann::json(nullptr) },
        { "layers", image.layers.size() }, { "size", image.size() }, { "verifications", verifications } });
    return out;
}

nlohmann::json diff_json(
    const workflow::SideDiff& diff, const workflow::DiffSide& before, const workflow::DiffSide& after)
{
    const lock::LockDiff& changes = diff.lock;
    nlohmann::json bytes = diff.bytes
        ? nlohmann::json { { "before", diff.bytes->before }, { "after", diff.bytes->after } }
        : nlohmann::json(nullptr);
    return { { "before", before.shown }, { "after", after.shown }, { "equal", diff.empty() },
        { "changes", diff.size() }, { "summary", diff.empty() ? "" : diff_summary(diff, after) },
        { "sides", { { "before", side_json(before) }, { "after", side_json(after) } } },
        { "stack", fields_json(changes.stack) }, { "base_image", fields_json(changes.base_image) },
        { "packages", packages_json(changes.packages) }, { "system_packages", packages_json(changes.system_packages) },
        { "files", fields_json(changes.files) }, { "driver", fields_json(changes.driver) },
        { "gpus", fields_json(changes.gpus) }, { "image", fields_json(diff.image) }, { "size", bytes },
        { "layers", layers_json(diff.layers) }, { "verifications", fields_json(diff.verifications) } };
}

int run_diff(const DiffArgs& args, const Options& options)
{
    std::filesystem::path store = store_dir(options);
    workflow::DiffSide before = workflow::read_diff_side(store, args.before, args.platform);
    workflow::DiffSide after = workflow::read_diff_side(store, args.after, args.platform);
    workflow::SideDiff diff = workflow::diff_sides(before, after);
    if (options.json)
        print_json(diff_json(diff, before, after));
    else
        std::cout << diff_markdown(diff, before, after);
    return diff.empty() ? 0 : 1;
}

} // namespace

void register_diff(CLI::App& app, Options& options, int& exit_code)
{
    auto args = std::make_shared<DiffArgs>();
    auto* cmd = app.add_subcommand("diff",
        "What changed between two locks, two images of the store, or a lock and an image, as markdown for a "
        "pull-request comment: the stack, the base image, the packages, the driver floors, each GPU's verdict and, "
        "between images, their layers and verifications (exit 1 when they differ)");
    cmd->add_option("before", args->before, "A lock file, or an image NAME[:TAG] or NAME@sha256:... of the store")
        ->required();
    cmd->add_option("after", args->after, "The same, after the change")->required();
    cmd->add_option("--platform", args->platform,
           "Of locks and images of several platforms, the one to compare (default: a lock's first, an image's for this "
           "machine)")
        ->type_name("OS/ARCH");
    add_store_options(cmd, options);
    cmd->callback([args, &options, &exit_code] { exit_code = run_diff(*args, options); });
}

} // namespace dlenv::cli
