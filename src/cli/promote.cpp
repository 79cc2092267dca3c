#include "cli/commands.h"

#include "cli/output.h"
#include "cli/store_output.h"
#include "core/error.h"
#include "core/time_text.h"
#include "store/store.h"
#include "store/tags.h"
#include "verify/promotion.h"

#include <iostream>
#include <memory>

namespace dlenv::cli {
namespace {

int run_promote(const std::string& name, const Options& options)
{
    store::Store store = store::Store::open_for_writing(store_dir(options));
    verify::PromotionCheck check = verify::check_promotion(store, name);
    if (!check.problems.empty()) {
        std::string message = name + ":latest cannot be promoted: " + check.problems.front();
        for (std::size_t i = 1; i < check.problems.size(); ++i)
            message += "; " + check.problems[i];
        std::string required;
        for (const auto& tier : check.required)
            required += (required.empty() ? "" : ", ") + tier;
        throw Error(ErrorCode::verification_failed, message,
            "its lock requires passing verifications of the tiers " + required
                + " (the profile's \"validation\": {\"tiers\": [...]})");
    }
    store::Records records = store.records();
    store::HistoryEntry entry = store::record_promotion(records, name, check.image, now_seconds());
    store.commit(std::move(records));
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
