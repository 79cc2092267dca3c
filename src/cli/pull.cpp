#include "cli/commands.h"

#include "cli/node_gpus.h"
#include "cli/output.h"
#include "cli/registry_options.h"
#include "cli/store_output.h"
#include "cli/transfer_json.h"
#include "cli/transfer_progress.h"
#include "registry/platform.h"
#include "workflow/pull_into_store.h"

#include <iostream>

namespace dlenv::cli {
namespace {

nlohmann::json documents_json(const workflow::RegistryDocuments& documents)
{
    nlohmann::json reports = nlohmann::json::array();
    for (const auto& report : documents.reports)
        reports.push_back({ { "tier", report.verification.tier }, { "passed", report.verification.passed },
            { "time", report.verification.time }, { "artifact", report.artifact.text() }, { "node", report.node.host },
            { "gpus", node_gpus_json(report.node.gpus) }, { "driver", report.node.driver } });
    return { { "lock", documents.lock.has_value() }, { "sbom", documents.sbom.has_value() }, { "reports", reports } };
}

std::string describe_documents(const workflow::RegistryDocuments& documents)
{
    std::vector<std::string> parts;
    if (documents.lock)
        parts.push_back("lock");
    if (documents.sbom)
        parts.push_back("sbom");
    for (const auto& report : documents.reports)
        parts.push_back(report.verification.tier + " report (" + (report.verification.passed ? "passed" : "failed")
            + (report.node.host.empty() ? "" : " on " + report.node.host) + ")");
    if (parts.empty())
        return "none";
    std::string out;
    for (const auto& part : parts)
        out += (out.empty() ? "" : ", ") + part;
    return out;
}

struct PullArgs {
    std::string reference;
    std::string platform = "linux/amd64";
    RegistryArgs registry;
};

int run_pull(const PullArgs& args, const Options& options)
{
    workflow::PullRequest request;
    request.reference = ImageReference::parse(args.reference);
    request.platform = registry::parse_platform(args.platform);
    request.insecure = args.registry.insecure;
    request.store_dir = store_dir(options);
    TransferProgress progress(transfer_progress_mode(options.json), "downloaded");
    request.progress = progress.callback();
    workflow::PulledImage pulled = workflow::pull_into_store(request);

    const registry::ResolvedImage& image = pulled.pull.image;
    if (options.json) {
        print_json({ { "name", pulled.name }, { "tag", pulled.tag }, { "digest", image.manifest.digest.text() },
            { "index", image.index ? nlohmann::json(image.index->text()) : nlohmann::json(nullptr) },
            { "blobs", blobs_json(pulled.pull.blobs) }, { "moved", moves_json(pulled.entry) },
            { "attached", documents_json(pulled.documents) } });
        return 0;
    }
    std::cout << "pulled " << pulled.name << ":" << pulled.tag << " " << image.manifest.digest.text() << "\n";
    if (image.index)
        std::cout << "  index: " << image.index->text() << " (" << args.platform << ")\n";
    std::cout << "  blobs: " << describe_blobs(pulled.pull.blobs, "downloaded") << "\n"
              << "  tags: " << describe_moves(pulled.entry) << "\n"
              << "  attached: " << describe_documents(pulled.documents) << "\n";
    return 0;
}

} // namespace

void register_pull(CLI::App& app, Options& options, int& exit_code)
{
    auto args = std::make_shared<PullArgs>();
    auto* cmd = app.add_subcommand("pull", "Copy an image from a registry into the store");
    cmd->add_option("reference", args->reference, "The image: [REGISTRY/]REPOSITORY[:TAG|@DIGEST]")
        ->required()
        ->type_name("REF");
    cmd->add_option("--platform", args->platform, "The platform to pick from an index (default linux/amd64)")
        ->type_name("OS/ARCH[/VARIANT]");
    add_registry_options(cmd, args->registry);
    add_store_options(cmd, options);
    cmd->callback([args, &options, &exit_code] { exit_code = run_pull(*args, options); });
}

} // namespace dlenv::cli
