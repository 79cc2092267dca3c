#include "cli/commands.h"

#include "cli/output.h"
#include "cli/store_output.h"
#include "store/fsck.h"

#include <iostream>

namespace dlenv::cli {
namespace {

int run_fsck(const Options& options)
{
    store::Store store = store::Store::open(store_dir(options));
    store::FsckReport report = store::check_store(store);
    if (options.json) {
        print_json({ { "ok", report.ok() }, { "problems", report.problems }, { "notes", report.notes },
            { "checked_blobs", report.checked_blobs }, { "checked_artifacts", report.checked_artifacts },
            { "checked_bytes", report.checked_bytes } });
    } else {
        for (const auto& problem : report.problems)
            std::cout << "problem: " << problem << "\n";
        for (const auto& note : report.notes)
            std::cout << "note: " << note << "\n";
        std::cout << (report.ok() ? "ok: " : "damaged: ") << report.checked_blobs << " blob(s), "
                  << report.checked_artifacts << " artifact(s), " << report.checked_bytes << " bytes checked\n";
    }
    return report.ok() ? 0 : 1;
}

} // namespace

void register_fsck(CLI::App& app, Options& options, int& exit_code)
{
    auto* cmd = app.add_subcommand("fsck",
        "Check that every blob the store references is there and matches its "
        "digest, and every fetched artifact its sha256");
    add_store_options(cmd, options);
    cmd->callback([&options, &exit_code] { exit_code = run_fsck(options); });
}

} // namespace dlenv::cli
