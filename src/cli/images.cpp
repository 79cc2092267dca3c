#include "cli/commands.h"

#include "cli/human_size.h"
#include "cli/output.h"
#include "cli/store_output.h"
#include "store/image_list.h"
#include "store/store.h"

namespace dlenv::cli {
namespace {

int run_images(const Options& options)
{
    std::vector<store::ListedImage> rows = store::list_images(store::Store::open(store_dir(options)));
    if (options.json) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& row : rows)
            out.push_back({ { "name", row.name }, { "tag", row.tag }, { "digest", row.manifest.digest.text() },
                { "created", row.created }, { "size", row.size } });
        print_json(out);
        return 0;
    }
    std::printf("%-24s %-10s %-19s %-20s %s\n", "NAME", "TAG", "DIGEST", "CREATED", "SIZE");
    for (const auto& row : rows)
        std::printf("%-24s %-10s %-19s %-20s %s\n", row.name.c_str(), row.tag.c_str(),
            row.manifest.digest.short_text().c_str(), row.created.c_str(), human_size(row.size).c_str());
    return 0;
}

} // namespace

void register_images(CLI::App& app, Options& options, int& exit_code)
{
    auto* cmd = app.add_subcommand("images", "List the images in the store: name, tag, digest, created, size");
    add_store_options(cmd, options);
    cmd->callback([&options, &exit_code] { exit_code = run_images(options); });
}

} // namespace dlenv::cli
