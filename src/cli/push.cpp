#include "cli/commands.h"

#include "cli/output.h"
#include "cli/registry_options.h"
#include "cli/store_output.h"
#include "cli/transfer_json.h"
#include "cli/transfer_progress.h"
#include "registry/push.h"
#include "store/store.h"

#include <iostream>

namespace dlenv::cli {
namespace {

constexpr const char* k_base_name_annotation = "org.opencontainers.image.base.name";

struct PushArgs {
    std::string image;
    std::string reference;
    bool all_tags = false;
    std::string mount_from;
    std::int64_t chunk_mib = 64;
    RegistryArgs registry;
};

// The repository to mount blobs from: --mount-from, else the image's base when it lives
// in another repository of the same registry (its layers are then likely there).
std::string mount_source(const PushArgs& args, const ImageReference& target, const oci::Manifest& manifest)
{
    if (!args.mount_from.empty())
        return args.mount_from;
    auto base = manifest.annotations.find(k_base_name_annotation);
    if (base == manifest.annotations.end())
        return "";
    try {
        ImageReference from = ImageReference::parse(base->second);
        return from.registry == target.registry && from.repository != target.repository ? from.repository : "";
    } catch (const Error&) {
        return ""; // a base named by a path or an archive: nothing to mount from
    }
}

// The store tags to push, each with the registry tag it goes out as.
std::vector<std::pair<std::string, std::string>> tags_to_push(const PushArgs& args, const store::Store& store,
                                                               const ImageReference& target)
{
    store::ImageTag image = store::ImageTag::parse(args.image);
    if (!args.all_tags)
        return {{image.tag, target.tag.empty() ? image.tag : target.tag}};
    if (target.explicit_tag || target.digest)
        throw Error(ErrorCode::invalid_input, "--all-tags pushes every tag of " + image.name + " under its own name",
                    "give the repository without a tag: " + target.registry + "/" + target.repository);
    std::vector<std::pair<std::string, std::string>> tags;
    for (const auto& [tag, descriptor] : store.records().at(image.name).tags)
        tags.emplace_back(tag, tag);
    return tags;
}

int run_push(const PushArgs& args, const Options& options)
{
    ImageReference target = ImageReference::parse(args.reference);
    if (target.digest)
        throw Error(ErrorCode::invalid_input, "push to a digest: " + args.reference,
                    "name a tag; the registry answers with the digest");
    store::ImageTag image = store::ImageTag::parse(args.image);
    store::Store store = store::Store::open(store_dir(options));
    std::unique_ptr<registry::Session> session = registry::open_session(target, args.registry.insecure);
    TransferProgress progress(transfer_progress_mode(options.json), "uploaded");

    nlohmann::json pushed = nlohmann::json::array();
    for (const auto& [store_tag, remote_tag] : tags_to_push(args, store, target)) {
        std::optional<oci::Descriptor> manifest = store.find(image.name, store_tag);
        if (!manifest)
            throw Error(ErrorCode::not_found, image.name + ":" + store_tag + " is not in the store at " +
                                                  store.layout().dir().string(),
                        "`dlenv images` lists what is there");
        registry::PushOptions push_options;
        push_options.progress = progress.callback();
        push_options.upload.chunk_size = args.chunk_mib << 20;
        oci::Manifest parsed = oci::Manifest::parse(store.layout().read_blob(*manifest), manifest->digest.text());
        push_options.upload.mount_from = mount_source(args, target, parsed);
        registry::PushResult result =
            registry::push_image(*session, target.repository, store.layout(), *manifest, {remote_tag}, push_options);
        std::string where = target.registry + "/" + target.repository + ":" + remote_tag;
        pushed.push_back({{"reference", where},
                          {"digest", manifest->digest.text()},
                          {"blobs", blobs_json(result.blobs)}});
        if (!options.json)
            std::cout << "pushed " << image.name << ":" << store_tag << " to " << where << " "
                      << manifest->digest.text() << "\n  blobs: " << describe_blobs(result.blobs, "uploaded") << "\n";
    }
    if (options.json)
        print_json({{"pushed", pushed}});
    return 0;
}

} // namespace

void register_push(CLI::App& app, Options& options, int& exit_code)
{
    auto args = std::make_shared<PushArgs>();
    auto* cmd = app.add_subcommand("push", "Copy an image of the store to a registry");
    cmd->add_option("image", args->image, "The image in the store: NAME[:TAG]")->required()->type_name("NAME[:TAG]");
    cmd->add_option("reference", args->reference, "Where it goes: [REGISTRY/]REPOSITORY[:TAG]")
        ->required()
        ->type_name("REF");
    cmd->add_flag("--all-tags", args->all_tags, "Push every tag of NAME, each under its own tag");
    cmd->add_option("--mount-from", args->mount_from,
                    "Mount blobs the registry holds in this repository instead of uploading them")
        ->type_name("REPOSITORY");
    cmd->add_option("--chunk-size", args->chunk_mib,
                    "Upload blobs larger than this in resumable chunks of this size (default 64), for registries "
                    "and proxies that cap request bodies")
        ->type_name("MIB")
        ->check(CLI::Range(1, 4096));
    add_registry_options(cmd, args->registry);
    add_store_options(cmd, options);
    cmd->callback([args, &options, &exit_code] { exit_code = run_push(*args, options); });
}

} // namespace dlenv::cli
