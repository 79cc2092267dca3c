#include "image/base_image.h"

#include "core/error.h"
#include "core/image_reference.h"
#include "oci/docker_archive.h"
#include "oci/layout_copy.h"
#include "oci/media_types.h"
#include "registry/pull.h"
#include "store/checked_layers.h"
#include "store/reachability.h"
#include "store/tags.h"

namespace dlenv::image {
namespace {

// Splits "PATH[:SUFFIX]" at its first colon, as skopeo reads oci: and docker-archive:
// references, so a suffix may itself hold '/' and ':' ("nvidia/cuda:12.2").
std::pair<std::string, std::string> path_and_suffix(const std::string& text)
{
    std::size_t colon = text.find(':');
    if (colon == std::string::npos)
        return { text, "" };
    return { text.substr(0, colon), text.substr(colon + 1) };
}

Error not_in_store(const std::string& reference, const std::filesystem::path& store_dir)
{
    return Error(ErrorCode::not_found, "not in the store at " + store_dir.string(),
        "bring it in with `dlenv pull " + reference
            + "`, pin it with `dlenv lock` so the build pulls it, "
              "or use --base docker-archive:FILE with a `docker save` tarball");
}

BaseSource locate(
    const std::string& reference, const std::optional<Digest>& pinned_manifest, const std::filesystem::path& store_dir)
{
    if (pinned_manifest && is_registry_reference(reference))
        return { reference, BaseSource::Kind::registry, {}, {}, pinned_manifest };
    if (reference == "scratch")
        return { reference, BaseSource::Kind::scratch, {}, {}, {} };
    if (reference.starts_with("oci:")) {
        auto [dir, ref] = path_and_suffix(reference.substr(4));
        if (!std::filesystem::exists(std::filesystem::path(dir) / "oci-layout"))
            throw Error(ErrorCode::not_found, dir + " is not an OCI image layout (no oci-layout file)");
        return { reference, BaseSource::Kind::layout, dir, ref, {} };
    }
    if (reference.starts_with("docker-archive:")) {
        auto [file, tag] = path_and_suffix(reference.substr(15));
        if (!std::filesystem::is_regular_file(file))
            throw Error(ErrorCode::not_found, "no such file: " + file,
                "write it with `docker save IMAGE -o FILE`, or name another base");
        return { reference, BaseSource::Kind::archive, file, tag, {} };
    }
    auto [name, tag] = store::ImageTag::parse(reference);
    if (!std::filesystem::exists(store_dir / "oci-layout") || !store::Store::open(store_dir).find(name, tag))
        throw not_in_store(reference, store_dir);
    return { reference, BaseSource::Kind::store, {}, {}, {} };
}

// The base's manifest as the store holds it now, under the writer's lock, with every
// blob it needs present.
oci::Descriptor from_store(const BaseSource& base, const store::Store& store)
{
    auto [name, tag] = store::ImageTag::parse(base.reference);
    std::optional<oci::Descriptor> found = store.find(name, tag);
    if (!found)
        throw not_in_store(base.reference, store.layout().dir());
    oci::Descriptor manifest { found->media_type, found->digest, found->size, {}, std::nullopt };
    store::walk_image(store.layout(), manifest, [&](const oci::Descriptor& blob, const std::string& referrer) {
        if (!store.layout().has_blob(blob.digest))
            throw Error(ErrorCode::not_found, referrer + " needs " + blob.digest.text() + ", which the store lacks",
                "`dlenv fsck` says what is damaged; build the base image again");
        return true;
    });
    return manifest;
}

// The pinned image from the store when every blob is there, else from its registry.
oci::Descriptor from_registry(const BaseSource& base, const store::Store& store, bool insecure)
{
    ImageReference reference = ImageReference::parse(base.reference);
    reference.digest = base.pinned_manifest;
    oci::Descriptor pinned { std::string(oci::media_type::k_manifest), *reference.digest, 0, {}, std::nullopt };
    if (store.layout().has_blob(pinned.digest)) {
        pinned.size = static_cast<std::int64_t>(std::filesystem::file_size(store.layout().blob_path(pinned.digest)));
        pinned.media_type = oci::Manifest::parse(store.layout().read_blob(pinned), base.reference).media_type;
        bool complete = true;
        store::walk_image(store.layout(), pinned, [&](const oci::Descriptor& blob, const std::string&) {
            bool here = store.layout().has_blob(blob.digest);
            complete = complete && here;
            return here;
        });
        if (complete)
            return pinned;
    }
    std::unique_ptr<registry::Session> session = registry::open_session(reference, insecure);
    return registry::pull_image(*session, reference, store.layout(), {}).image.manifest.descriptor();
}

// A base from outside the store: its layers are checked once before anything builds on
// them, so that an image that would escape its root is refused at build, not at verify.
oci::Descriptor checked(const store::Store& store, oci::Descriptor manifest)
{
    store::check_layers_once(store, manifest);
    return manifest;
}

} // namespace

BaseSource locate_base(
    const std::string& reference, const std::optional<Digest>& pinned_manifest, const std::filesystem::path& store_dir)
{
    try {
        return locate(reference, pinned_manifest, store_dir);
    } catch (const Error& e) {
        throw e.with_context("base image " + reference);
    }
}

std::optional<oci::Descriptor> import_base(const BaseSource& base, const store::Store& store, bool insecure)
{
    try {
        switch (base.kind) {
        case BaseSource::Kind::scratch:
            return std::nullopt;
        case BaseSource::Kind::store:
            return from_store(base, store);
        case BaseSource::Kind::registry:
            return checked(store, from_registry(base, store, insecure));
        case BaseSource::Kind::archive:
            return checked(store, oci::import_docker_archive(base.path, base.ref, store.layout()));
        case BaseSource::Kind::layout: {
            oci::ImageLayout layout = oci::ImageLayout::open(base.path);
            return checked(
                store, oci::copy_image(layout, oci::find_image(layout, base.ref, base.platform), store.layout()));
        }
        }
        return std::nullopt;
    } catch (const Error& e) {
        throw e.with_context("base image " + base.reference);
    }
}

} // namespace dlenv::image
