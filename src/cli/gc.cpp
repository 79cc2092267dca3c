#include "cli/commands.h"

#include "cli/output.h"
#include "cli/store_output.h"
#include "store/gc.h"

#include <iostream>
#include <memory>

namespace dlenv::cli {
namespace {

int run_gc(std::size_t keep, const Options& options)
{
    store::Store store = store::Store::open_for_writing(store_dir(options));
    store::GcReport report = store::collect_garbage(store, keep);
    if (options.json)
        print_json({ { "kept_blobs", report.kept_blobs }, { "removed_blobs", report.removed_blobs },
            { "removed_bytes", report.removed_bytes }, { "forgotten_layers", report.forgotten_layers } });
    else
        std::cout << "removed " << report.removed_blobs << " blob(s), " << report.removed_bytes << " bytes; kept "
                  << report.kept_blobs << "\n";
    return 0;
}

} // namespace

void register_gc(CLI::App& app, Options& options, int& exit_code)
{
    auto keep = std::make_shared<std::size_t>(10);
    auto* cmd = app.add_subcommand(
        "gc", "Remove blobs that no tag and none of the last N history entries of an image reference");
    // Refused before conversion: CLI11 reads "-1" into a std::size_t as its largest value,
    // which would keep every image.
    CLI::Validator non_negative(
        [](const std::string& text) {
            return text.starts_with('-') ? "expected a whole number of at least 0, got " + text : std::string();
        },
        "N >= 0");
    cmd->add_option("--keep", *keep, "History entries to keep images for, per image name (default 10)")
        ->type_name("N")
        ->check(non_negative);
    add_store_options(cmd, options);
    cmd->callback([keep, &options, &exit_code] { exit_code = run_gc(*keep, options); });
}

} // namespace dlenv::cli
