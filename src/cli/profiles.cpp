#include "cli/commands.h"

#include "cli/output.h"
#include "resolve/profile.h"

#include <iostream>

namespace dlenv::cli {

void register_profiles(CLI::App& app, Options& options, int& exit_code)
{
    auto* cmd = app.add_subcommand("profiles", "List the shipped profiles");
    cmd->add_flag("--json", options.json, "Print them as JSON");
    cmd->callback([&options, &exit_code] {
        auto profiles = resolve::shipped_profiles();
        if (options.json) {
            nlohmann::json out = nlohmann::json::array();
            for (const auto& p : profiles)
                out.push_back(
                    { { "name", p.name }, { "description", p.description }, { "framework", p.framework.text() },
                        { "cuda", p.cuda ? nlohmann::json(p.cuda->text()) : nlohmann::json(nullptr) },
                        { "python", p.python.text() }, { "base_image", p.base_image } });
            print_json(out);
        } else {
            std::size_t width = 0;
            for (const auto& p : profiles)
                width = std::max(width, p.name.size());
            for (const auto& p : profiles)
                std::cout << p.name << std::string(width + 2 - p.name.size(), ' ') << p.description << "\n";
        }
        exit_code = 0;
    });
}

} // namespace dlenv::cli
