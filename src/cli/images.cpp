#include "cli/commands.h"

#include "cli/output.h"
#include "cli/store_output.h"
#include "store/image_list.h"
#include "store/store.h"

#include <cstdio>

namespace dlenv::cli {
namespace {

std::string human_size(std::int64_t bytes)
{
    const char* units[] = { "B", "kB", "MB", "GB", "TB" };
    double value = static_cast<double>(bytes);
    std::size_t unit = 0;
    while (value >= 1000 && unit + 1 < std::size(units)) {
        value /= 1000;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
    return text;
}

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
