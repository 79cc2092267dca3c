#include "cli/commands.h"

#include "cli/artifacts_output.h"
#include "cli/lockfile_argument.h"
#include "cli/output.h"
#include "cli/store_output.h"
#include "cli/transfer_progress.h"
#include "core/file.h"
#include "image/fetch.h"
#include "lock/lockfile.h"
#include "store/store.h"

#include <iostream>
#include <memory>

namespace dlenv::cli {
namespace {

// Why a lock has nothing to fetch, or "" when it has something.
std::string nothing_to_fetch(const lock::Lockfile& lock)
{
    if (!lock.packages())
        return "its Python packages are not locked (it was locked --offline without --wheelhouse)";
    if (lock.packages()->empty() && !lock.python().runtime)
        return "it pins no Python packages and no Python runtime";
    return "";
}

int run_fetch(const std::string& given, const Options& options)
{
    std::string lockfile = lockfile_argument(given, "fetch");
    lock::Lockfile lock = lock::Lockfile::parse(lockfile, read_file(lockfile));
    std::filesystem::path dir = store_dir(options);
    std::vector<image::FetchedArtifact> fetched;
    if (!image::pinned_artifacts(lock).empty()) {
        store::Store store = store::Store::open_for_writing(dir);
        TransferProgress progress(transfer_progress_mode(options.json), "downloaded");
        fetched = image::fetch_artifacts(lock, store, image::FetchOptions {}, progress.callback());
    }
    std::string why = nothing_to_fetch(lock);
    if (options.json) {
        nlohmann::json out
            = { { "lockfile", lockfile }, { "store", dir.string() }, { "artifacts", artifacts_json(fetched) } };
        if (!why.empty())
            out["note"] = lockfile + ": " + why;
        print_json(out);
        return 0;
    }
    if (!why.empty())
        std::cout << (fetched.empty() ? "nothing to fetch: " : "note: ") << lockfile << ": " << why << "\n";
    if (fetched.empty())
        return 0;
    for (const auto& artifact : fetched)
        std::cout << (artifact.cached ? "cached   " : "fetched  ") << artifact.artifact.name << " (" << artifact.bytes
                  << " bytes)\n";
    std::cout << "artifacts of " << lockfile << " in " << dir.string() << ": " << describe_artifacts(fetched) << "\n";
    return 0;
}

} // namespace

void register_fetch(CLI::App& app, Options& options, int& exit_code)
{
    auto lockfile = std::make_shared<std::string>();
    auto* cmd = app.add_subcommand(
        "fetch", "Download the wheels and Python runtime a lockfile pins into the store, checking each sha256");
    cmd->add_option("lockfile", *lockfile, "The lockfile (default: the only *.lock.json in . or lockfiles/)");
    add_store_options(cmd, options);
    cmd->callback([lockfile, &options, &exit_code] { exit_code = run_fetch(*lockfile, options); });
}

} // namespace dlenv::cli
