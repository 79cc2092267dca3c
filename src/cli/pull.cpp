#include "cli/commands.h"

#include "cli/output.h"
#include "cli/registry_options.h"
#include "cli/store_output.h"
#include "cli/transfer_json.h"
#include "cli/transfer_progress.h"
#include "core/time_text.h"
#include "registry/platform.h"
#include "registry/pull.h"
#include "store/checked_layers.h"
#include "store/store.h"
#include "store/tags.h"

#include <iostream>

namespace dlenv::cli {
namespace {

struct PullArgs {
    std::string reference;
    std::string platform = "linux/amd64";
    RegistryArgs registry;
};

// The store tag of a pulled image: the reference's tag, or for a digest reference
// "sha256-<hex>", the form OCI uses for tags that stand for digests.
std::string store_tag(const ImageReference& reference)
{
    return reference.tag.empty() ? "sha256-" + reference.digest->hex() : reference.tag;
}

int run_pull(const PullArgs& args, const Options& options)
{
    ImageReference reference = ImageReference::parse(args.reference);
    registry::PullOptions pull_options;
    pull_options.platform = registry::parse_platform(args.platform);
    TransferProgress progress(transfer_progress_mode(options.json), "downloaded");
    pull_options.progress = progress.callback();
    std::unique_ptr<registry::Session> session = registry::open_session(reference, args.registry.insecure);

    store::Store store = store::Store::open_for_writing(store_dir(options));
    registry::PullResult pulled = registry::pull_image(*session, reference, store.layout(), pull_options);
    store::check_layers_once(store, pulled.image.manifest.descriptor());
    store::Records records = store.records();
    std::string name = reference.familiar_name();
    std::string tag = store_tag(reference);
    store::HistoryEntry entry =
        store::record_pull(records, name, tag, pulled.image.manifest.descriptor(), now_seconds());
    store.commit(std::move(records));

    const registry::ResolvedImage& image = pulled.image;
    if (options.json) {
        print_json({{"name", name},
                    {"tag", tag},
                    {"digest", image.manifest.digest.text()},
                    {"index", image.index ? nlohmann::json(image.index->text()) : nlohmann::json(nullptr)},
                    {"blobs", blobs_json(pulled.blobs)},
                    {"moved", moves_json(entry)}});
        return 0;
    }
    std::cout << "pulled " << name << ":" << tag << " " << image.manifest.digest.text() << "\n";
    if (image.index)
        std::cout << "  index: " << image.index->text() << " (" << args.platform << ")\n";
    std::cout << "  blobs: " << describe_blobs(pulled.blobs, "downloaded") << "\n"
              << "  tags: " << describe_moves(entry) << "\n";
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
