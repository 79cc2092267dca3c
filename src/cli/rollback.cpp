#include "cli/commands.h"

#include "cli/output.h"
#include "cli/store_output.h"
#include "store/tags.h"
#include "workflow/roll_back_image.h"

#include <iostream>
#include <memory>

namespace dlenv::cli {
namespace {

int run_rollback(const std::string& name, bool production, const Options& options)
{
    workflow::RollbackRequest request;
    request.name = name;
    request.production = production;
    request.store_dir = store_dir(options);
    store::HistoryEntry entry = workflow::roll_back_image(request);
    std::string tag(production ? store::k_production : store::k_latest);
    if (options.json)
        print_json({ { "name", name }, { "digest", entry.image.digest.text() }, { "moved", moves_json(entry) } });
    else
        std::cout << "rolled back " << name << ":" << tag << " to " << entry.image.digest.text()
                  << "\n  tags: " << describe_moves(entry) << "\n";
    return 0;
}

} // namespace

void register_rollback(CLI::App& app, Options& options, int& exit_code)
{
    auto name = std::make_shared<std::string>();
    auto production = std::make_shared<bool>(false);
    auto* cmd = app.add_subcommand("rollback",
        "Move an image's latest tag (or, with --production, its production "
        "tag) back to the previous image");
    cmd->add_option("name", *name, "The image name")->required()->type_name("NAME");
    cmd->add_flag("--production", *production, "Put the previous production image back in production");
    add_store_options(cmd, options);
    cmd->callback([name, production, &options, &exit_code] { exit_code = run_rollback(*name, *production, options); });
}

} // namespace dlenv::cli
