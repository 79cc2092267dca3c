#include "cli/commands.h"

#include "cli/output.h"
#include "cli/store_output.h"
#include "core/time_text.h"
#include "store/store.h"
#include "store/tags.h"

#include <iostream>
#include <memory>

namespace dlenv::cli {
namespace {

int run_rollback(const std::string& name, bool production, const Options& options)
{
    store::Store store = store::Store::open_for_writing(store_dir(options));
    store::Records records = store.records();
    auto present = [&](const Digest& digest) { return store.layout().has_blob(digest); };
    store::HistoryEntry entry = production ? store::roll_back_production(records, name, now_seconds(), present)
                                           : store::roll_back(records, name, now_seconds(), present);
    std::string tag(production ? store::k_production : store::k_latest);
    if (!store.layout().has_blob(entry.image.digest))
        throw Error(ErrorCode::not_found,
            "the image " + entry.image.digest.text() + " that " + name + ":" + tag
                + " would go back to is no longer in the store",
            "`dlenv fsck` says what is damaged; build the image again");
    store.commit(std::move(records));
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
