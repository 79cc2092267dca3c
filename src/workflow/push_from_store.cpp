#include "workflow/push_from_store.h"

#include "core/error.h"
#include "oci/media_types.h"
#include "registry/index_push.h"
#include "registry/push.h"
#include "registry/session.h"
#include "store/store.h"
#include "verify/image_platform.h"

#include <map>

namespace dlenv::workflow {
namespace {

constexpr const char* k_base_name_annotation = "org.opencontainers.image.base.name";

} // namespace

std::vector<TagPush> tags_to_push(
    const store::Records& records, const store::ImageTag& image, const ImageReference& destination, bool all_tags)
{
    if (!all_tags)
        return { { image.tag, destination.tag.empty() ? image.tag : destination.tag } };
    if (destination.explicit_tag || destination.digest)
        throw Error(ErrorCode::invalid_input, "--all-tags pushes every tag of " + image.name + " under its own name",
            "give the repository without a tag: " + destination.registry + "/" + destination.repository);
    std::vector<TagPush> tags;
    for (const auto& [tag, descriptor] : records.at(image.name).tags)
        tags.push_back({ tag, tag });
    return tags;
}

std::string mount_source(
    const std::string& mount_from, const ImageReference& destination, const oci::Manifest& manifest)
{
    if (!mount_from.empty())
        return mount_from;
    auto base = manifest.annotations.find(k_base_name_annotation);
    if (base == manifest.annotations.end())
        return "";
    try {
        ImageReference from = ImageReference::parse(base->second);
        return from.registry == destination.registry && from.repository != destination.repository ? from.repository
                                                                                                  : "";
    } catch (const Error&) {
        return ""; // a base named by a path or an archive: nothing to mount from
    }
}

std::vector<PushedImage> push_from_store(const PushRequest& request)
{
    ImageReference destination = ImageReference::parse(request.destination);
    if (destination.digest)
        throw Error(ErrorCode::invalid_input, "push to a digest: " + request.destination,
            "name a tag; the registry answers with the digest");
    store::Store store = store::Store::open(request.store_dir);
    std::unique_ptr<registry::Session> session = registry::open_session(destination, request.insecure);

    std::vector<PushedImage> pushed;
    for (const auto& [store_tag, remote_tag] :
        tags_to_push(store.records(), request.image, destination, request.all_tags)) {
        std::optional<oci::Descriptor> manifest = store.find(request.image.name, store_tag);
        if (!manifest)
            throw Error(ErrorCode::not_found,
                request.image.name + ":" + store_tag + " is not in the store at " + store.layout().dir().string(),
                "`dlenv images` lists what is there");
        registry::PushOptions options;
        options.progress = request.progress;
        options.upload.chunk_size = request.chunk_size;
        bool index = manifest->media_type == oci::media_type::k_index;
        // The first platform's base annotation picks where to mount from: every platform's
        // base lives in the same repository.
        oci::Manifest parsed
            = oci::Manifest::parse(store.layout().read_blob(verify::platform_images(store.layout(), *manifest).front()),
                manifest->digest.text());
        options.upload.mount_from = mount_source(request.mount_from, destination, parsed);
        registry::PushResult result = index
            ? registry::push_index(*session, destination.repository, store.layout(), *manifest, { remote_tag }, options)
            : registry::push_image(
                *session, destination.repository, store.layout(), *manifest, { remote_tag }, options);
        pushed.push_back({ store_tag, destination.registry + "/" + destination.repository + ":" + remote_tag, *manifest,
            std::move(result.blobs), {} });
    }
    // After every tag: a store tag standing for a digest (sha256-<hex>, from a pull by
    // digest) pushed after the referrers would replace their tag-schema index.
    std::map<Digest, std::vector<PushedArtifact>> attached;
    for (auto& image : pushed) {
        auto [found, added] = attached.try_emplace(image.manifest.digest);
        if (added)
            for (const oci::Descriptor& platform_image : verify::platform_images(store.layout(), image.manifest)) {
                std::vector<PushedArtifact> documents
                    = push_documents(*session, destination.repository, store, platform_image);
                found->second.insert(found->second.end(), documents.begin(), documents.end());
            }
        image.artifacts = found->second;
        if (request.pushed)
            request.pushed(image);
    }
    return pushed;
}

} // namespace dlenv::workflow
