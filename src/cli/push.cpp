#include "cli/commands.h"

#include "cli/output.h"
#include "cli/registry_options.h"
#include "cli/store_output.h"
#include "cli/transfer_json.h"
#include "cli/transfer_progress.h"
#include "workflow/push_from_store.h"

#include <iostream>

namespace dlenv::cli {
namespace {

nlohmann::json artifacts_json(const std::vector<workflow::PushedArtifact>& artifacts)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& artifact : artifacts)
        out.push_back({ { "artifact_type", artifact.artifact_type }, { "digest", artifact.manifest.digest.text() },
            { "listed", artifact.listed == registry::ReferrersApi::api ? "referrers-api" : "tag-schema" } });
    return out;
}

// "3 referrers (sha256-<hex> index): application/spdx+json, ..."
std::string describe_artifacts(const workflow::PushedImage& image)
{
    if (image.artifacts.empty())
        return "none (nothing attached or verified)";
    std::string out = std::to_string(image.artifacts.size()) + " referrers ("
        + (image.artifacts.front().listed == registry::ReferrersApi::api
                ? std::string("referrers API")
                : "tag sha256-" + image.manifest.digest.hex().substr(0, 12) + "...")
        + "):";
    for (const auto& artifact : image.artifacts)
        out += " " + artifact.artifact_type;
    return out;
}

struct PushArgs {
    std::string image;
    std::string reference;
    bool all_tags = false;
    std::string mount_from;
    std::int64_t chunk_mib = 64;
    RegistryArgs registry;
};

int run_push(const PushArgs& args, const Options& options)
{
    workflow::PushRequest request;
    request.image = store::ImageTag::parse(args.image);
    request.destination = args.reference;
    request.all_tags = args.all_tags;
    request.mount_from = args.mount_from;
    request.chunk_size = args.chunk_mib << 20;
    request.insecure = args.registry.insecure;
    request.store_dir = store_dir(options);
    TransferProgress progress(transfer_progress_mode(options.json), "uploaded");
    request.progress = progress.callback();
    if (!options.json)
        request.pushed = [&request](const workflow::PushedImage& image) {
            std::cout << "pushed " << request.image.name << ":" << image.store_tag << " to " << image.reference << " "
                      << image.manifest.digest.text() << "\n  blobs: " << describe_blobs(image.blobs, "uploaded")
                      << "\n  attached: " << describe_artifacts(image) << "\n";
        };
    std::vector<workflow::PushedImage> pushed = workflow::push_from_store(request);
    if (options.json) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& image : pushed)
            out.push_back({ { "reference", image.reference }, { "digest", image.manifest.digest.text() },
                { "blobs", blobs_json(image.blobs) }, { "artifacts", artifacts_json(image.artifacts) } });
        print_json({ { "pushed", out } });
    }
    return 0;
}

} // namespace

void register_push(CLI::App& app, Options& options, int& exit_code)
{
    auto args = std::make_shared<PushArgs>();
    auto* cmd = app.add_subcommand("push", "Copy an image of the store to a registry");
    cmd->add_option("image", args->image, "The image in the store: NAME[:TAG]")->required()->type_name("NAME[:TAG]");
    cmd->add_option("reference", args->reference, "Where it goes: [REGISTRY/]REPOSITORY[:TAG]")
        ->required()
        ->type_name("REF");
    cmd->add_flag("--all-tags", args->all_tags, "Push every tag of NAME, each under its own tag");
    cmd->add_option("--mount-from", args->mount_from,
           "Mount blobs the registry holds in this repository instead of uploading them")
        ->type_name("REPOSITORY");
    cmd->add_option("--chunk-size", args->chunk_mib,
           "Upload blobs larger than this in resumable chunks of this size (default 64), for registries "
           "and proxies that cap request bodies")
        ->type_name("MIB")
        ->check(CLI::Range(1, 4096));
    add_registry_options(cmd, args->registry);
    add_store_options(cmd, options);
    cmd->callback([args, &options, &exit_code] { exit_code = run_push(*args, options); });
}

} // namespace dlenv::cli
