#include "cli/fleet.h"

#include "cli/node_gpus.h"
#include "cli/output.h"
#include "cli/registry_options.h"
#include "workflow/fleet_status.h"

#include <algorithm>
#include <iostream>
#include <memory>

namespace dlenv::cli {
namespace {

struct FleetStatusArgs {
    std::string reference;
    RegistryArgs registry;
};

std::string joined(const std::vector<std::string>& parts)
{
    std::string out;
    for (const auto& part : parts)
        out += (out.empty() ? "" : ", ") + part;
    return out.empty() ? "none" : out;
}

nlohmann::json status_json(const workflow::FleetStatus& status)
{
    nlohmann::json reports = nlohmann::json::array();
    for (const auto& report : status.reports)
        reports.push_back({ { "node", report.node.host }, { "tier", report.tier }, { "passed", report.passed },
            { "time", report.time }, { "gpus", node_gpus_json(report.node.gpus) }, { "driver", report.node.driver },
            { "artifact", report.artifact.text() } });
    return { { "image", status.image.text() }, { "reports", reports },
        { "gpu_models",
            { { "passed", status.models_passed }, { "failed", status.models_failed },
                { "missing", status.models_missing } } } };
}

void print_status(const workflow::FleetStatus& status)
{
    std::cout << "image " << status.image.text() << "\n";
    if (status.reports.empty())
        std::cout << "  no verification reports in the registry\n";
    for (const auto& report : status.reports) {
        std::vector<std::string> gpus;
        for (const auto& gpu : report.node.gpus)
            gpus.push_back(node_gpu_text(gpu));
        std::cout << "  " << (report.node.host.empty() ? "(unnamed node)" : report.node.host) << " " << report.tier
                  << " " << (report.passed ? "passed" : "failed") << " at " << report.time
                  << (gpus.empty() ? "" : ", GPUs " + joined(gpus))
                  << (report.node.driver.empty() ? "" : ", driver " + report.node.driver) << "\n";
    }
    std::cout << "  GPU models passed: " << joined(status.models_passed)
              << "\n  GPU models failed: " << joined(status.models_failed)
              << "\n  GPU models missing: " << joined(status.models_missing) << "\n";
}

int run_fleet_status(const FleetStatusArgs& args, const Options& options)
{
    workflow::FleetStatus status = workflow::fleet_status(
        workflow::registry_documents(ImageReference::parse(args.reference), args.registry.insecure));
    if (options.json)
        print_json(status_json(status));
    else
        print_status(status);
    bool all_passed = std::all_of(
        status.reports.begin(), status.reports.end(), [](const workflow::NodeReport& report) { return report.passed; });
    return all_passed && status.models_failed.empty() && status.models_missing.empty() ? 0 : 1;
}

} // namespace

void register_fleet_status(CLI::App& fleet, Options& options, int& exit_code)
{
    auto args = std::make_shared<FleetStatusArgs>();
    auto* cmd = fleet.add_subcommand("status",
        "Which nodes, and which of their GPUs by model and UUID, passed or failed each tier of an image, from the "
        "reports `dlenv push` attached to it in the registry, and which GPU models of its lock passed, failed or have "
        "no gpu report; exit 1 unless all passed");
    cmd->add_option("reference", args->reference, "The image in its registry: [REGISTRY/]REPOSITORY[:TAG|@DIGEST]")
        ->required()
        ->type_name("REF");
    add_registry_options(cmd, args->registry);
    cmd->add_flag("--json", options.json, "Print JSON");
    cmd->callback([args, &options, &exit_code] { exit_code = run_fleet_status(*args, options); });
}

} // namespace dlenv::cli
