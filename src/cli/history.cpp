#include "cli/commands.h"

#include "cli/output.h"
#include "cli/store_output.h"
#include "store/store.h"

#include <iostream>
#include <memory>

namespace dlenv::cli {

namespace {

int run_history(const std::string& name, const Options& options)
{
    store::Store store = store::Store::open(store_dir(options));
    const store::ImageRecord& record = store.records().at(name);
    if (options.json) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& entry : record.history)
            out.push_back({ { "time", entry.time }, { "action", entry.action }, { "image", entry.image.digest.text() },
                { "lock_digest",
                    entry.lock_digest.empty() ? nlohmann::json(nullptr) : nlohmann::json(entry.lock_digest) },
                { "moved", moves_json(entry) } });
        print_json(out);
        return 0;
    }
    for (auto entry = record.history.rbegin(); entry != record.history.rend(); ++entry) {
        std::cout << entry->time << "  " << entry->action << "  " << entry->image.digest.short_text();
        if (!entry->lock_digest.empty())
            std::cout << "  lock " << entry->lock_digest.substr(0, 19);
        std::cout << "\n    " << describe_moves(*entry) << "\n";
    }
    return 0;
}

} // namespace

void register_history(CLI::App& app, Options& options, int& exit_code)
{
    auto name = std::make_shared<std::string>();
    auto* cmd = app.add_subcommand("history", "Show what happened to an image name, newest first");
    cmd->add_option("name", *name, "The image name")->required()->type_name("NAME");
    add_store_options(cmd, options);
    cmd->callback([name, &options, &exit_code] { exit_code = run_history(*name, options); });
}

} // namespace dlenv::cli
