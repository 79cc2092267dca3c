#include "cli/commands.h"

#include "cli/output.h"
#include "cli/registry_options.h"
#include "cli/store_output.h"
#include "workflow/promote_latest.h"

#include <iostream>
#include <memory>

namespace dlenv::cli {
namespace {

struct PromoteArgs {
    std::string name;
    std::string from_registry;
    bool require_gpu_models = false;
    RegistryArgs registry;
};

int run_promote(const PromoteArgs& args, const Options& options)
{
    const std::string& name = args.name;
    workflow::PromoteRequest request;
    request.name = name;
    request.store_dir = store_dir(options);
    if (!args.from_registry.empty())
        request.from_registry = ImageReference::parse(args.from_registry);
    request.insecure = args.registry.insecure;
    request.require_gpu_models = args.require_gpu_models;
    store::HistoryEntry entry = workflow::promote_latest(request);
    if (options.json)
        print_json({ { "name", name }, { "digest", entry.image.digest.text() }, { "moved", moves_json(entry) } });
    else
        std::cout << "promoted " << name << ":latest " << entry.image.digest.text()
                  << " to production\n  tags: " << describe_moves(entry) << "\n";
    return 0;
}

} // namespace

void register_promote(CLI::App& app, Options& options, int& exit_code)
{
    auto args = std::make_shared<PromoteArgs>();
    auto* cmd = app.add_subcommand("promote",
        "Move an image's production tag to latest, once latest has passed "
        "every tier its lock requires");
    cmd->add_option("name", args->name, "The image name")->required()->type_name("NAME");
    cmd->add_option("--from-registry", args->from_registry,
           "Promote on the verification reports this registry image holds (pushed by `dlenv push` from the "
           "machines that verified it) instead of the store's; it must be NAME:latest's digest, and of an index each "
           "platform's image needs its own reports there")
        ->type_name("REF");
    cmd->add_flag("--require-gpu-models", args->require_gpu_models,
        "Also require a passing gpu-tier report from a node with each GPU model the lock targets");
    add_registry_options(cmd, args->registry);
    add_store_options(cmd, options);
    cmd->callback([args, &options, &exit_code] { exit_code = run_promote(*args, options); });
}

} // namespace dlenv::cli
