#include "cli/fleet.h"

#include "cli/store_output.h"
#include "core/error.h"
#include "store/records.h"
#include "workflow/image_tiers.h"

namespace dlenv::cli {
namespace {

// An image pulled into the store is named after its registry ("127.0.0.1:5000/team/app"),
// which is where the nodes find it too; any other name needs --registry.
std::string default_registry(const store::ImageTag& image)
{
    std::string first = image.name.substr(0, image.name.find('/'));
    bool names_registry = image.name.find('/') != std::string::npos
        && (first.find_first_of(".:") != std::string::npos || first == "localhost");
    if (!names_registry)
        throw Error(ErrorCode::invalid_input, "--registry: not given, and " + image.name + " names no registry",
            "give --registry REF, the repository `dlenv push` put the image in");
    return image.name + ":" + image.tag;
}

} // namespace

void add_fleet_options(CLI::App* command, FleetArgs& args, Options& options)
{
    command->add_option("image", args.image, "The image in the store: NAME[:TAG] (default tag: latest)")
        ->required()
        ->type_name("NAME[:TAG]");
    command
        ->add_option("--registry", args.registry,
            "Where the nodes pull the image from, by its digest, and push it back with their reports: "
            "[REGISTRY/]REPOSITORY[:TAG], where `dlenv push` put it (default: NAME:TAG, for a NAME that "
            "starts with a registry)")
        ->type_name("REF");
    command->add_option("--nodes", args.nodes, "How many nodes verify the image, one task each (default 1)")
        ->type_name("N")
        ->check(CLI::Range(1, 100000));
    command
        ->add_option("--gpus-per-node", args.gpus_per_node,
            "The GPUs each node's task takes (default 1: a lock names GPU models, not how many a node has)")
        ->type_name("N")
        ->check(CLI::Range(0, 1024));
    command->add_flag("--insecure", args.insecure, "The nodes reach the registry over plain HTTP or unverified TLS");
    add_store_options(command, options);
}

fleet::FleetJob fleet_job(const FleetArgs& args, const Options& options)
{
    fleet::check_plain("NAME", args.image);
    store::ImageTag image = store::ImageTag::parse(args.image);
    std::string reference = args.registry.empty() ? default_registry(image) : args.registry;
    fleet::check_plain("--registry", reference);
    ImageReference registry = ImageReference::parse(reference);
    if (registry.digest)
        throw Error(ErrorCode::invalid_input, "--registry " + args.registry + ": names a digest",
            "name the repository and tag the image was pushed to; the nodes pull it by the digest it has in the store");
    workflow::ImageTiers stored = workflow::image_tiers(store_dir(options), image.name, image.tag);
    fleet::FleetJob job { image.name, std::move(registry), stored.image, fleet::node_tiers(stored.tiers), args.nodes,
        args.gpus_per_node, args.insecure };
    fleet::check_job(job);
    return job;
}

void register_fleet(CLI::App& app, Options& options, int& exit_code)
{
    auto* cmd = app.add_subcommand(
        "fleet", "Verify an image on many GPU nodes through Slurm or Kubernetes, and read back how each node did");
    cmd->require_subcommand(1);
    for (Registrar registrar : { register_fleet_slurm, register_fleet_k8s, register_fleet_status })
        registrar(*cmd, options, exit_code);
}

} // namespace dlenv::cli
