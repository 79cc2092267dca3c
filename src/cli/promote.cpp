#include "cli/commands.h"

#include "cli/output.h"
#include "cli/store_output.h"
#include "workflow/promote_latest.h"

#include <iostream>
#include <memory>

namespace dlenv::cli {
namespace {

int run_promote(const std::string& name, const Options& options)
{
    workflow::PromoteRequest request;
    request.name = name;
    request.store_dir = store_dir(options);
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
    auto name = std::make_shared<std::string>();
    auto* cmd = app.add_subcommand("promote",
        "Move an image's production tag to latest, once latest has passed "
        "every tier its lock requires");
    cmd->add_option("name", *name, "The image name")->required()->type_name("NAME");
    add_store_options(cmd, options);
    cmd->callback([name, &options, &exit_code] { exit_code = run_promote(*name, options); });
}

} // namespace dlenv::cli
