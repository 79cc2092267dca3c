#include "build/base_image.h"

#include "core/error.h"
#include "oci/docker_archive.h"
#include "oci/layout_copy.h"
#include "store/reachability.h"
#include "store/tags.h"

namespace dlenv::build {
namespace {

// Splits "PATH[:SUFFIX]" at its first colon, as skopeo reads oci: and docker-archive:
// references, so a suffix may itself hold '/' and ':' ("nvidia/cuda:12.2").
std::pair<std::string, std::string> path_and_suffix(const std::string& text)
{
    std::size_t colon = text.find(':');
    if (colon == std::string::npos)
        return {text, ""};
    return {text.substr(0, colon), text.substr(colon + 1)};
}

Error not_in_store(const std::string& reference, const std::filesystem::path& store_dir)
{
    std::string tag = store::ImageTag::parse(reference).tag;
    return Error(ErrorCode::not_found, "not in the store at " + store_dir.string(),
                 "copy it into an OCI layout (`skopeo copy docker://" + reference + " oci:base:" + tag +
                     "`) and build with --base oci:base:" + tag +
                     ", or use --base docker-archive:FILE with a `docker save` tarball");
}

BaseSource locate(const std::string& reference, const std::filesystem::path& store_dir)
{
    if (reference == "scratch")
        return {reference, BaseSource::Kind::scratch, {}, {}};
    if (reference.starts_with("oci:")) {
        auto [dir, ref] = path_and_suffix(reference.substr(4));
        if (!std::filesystem::exists(std::filesystem::path(dir) / "oci-layout"))
            throw Error(ErrorCode::not_found, dir + " is not an OCI image layout (no oci-layout file)");
        return {reference, BaseSource::Kind::layout, dir, ref};
    }
    if (reference.starts_with("docker-archive:")) {
        auto [file, tag] = path_and_suffix(reference.substr(15));
        if (!std::filesystem::is_regular_file(file))
            throw Error(ErrorCode::not_found, "no such file: " + file,
                        "write it with `docker save IMAGE -o FILE`, or name another base");
        return {reference, BaseSource::Kind::archive, file, tag};
    }
    auto [name, tag] = store::ImageTag::parse(reference);
    if (!std::filesystem::exists(store_dir / "oci-layout") || !store::Store::open(store_dir).find(name, tag))
        throw not_in_store(reference, store_dir);
    return {reference, BaseSource::Kind::store, {}, {}};
}

// The base's manifest as the store holds it now, under the writer's lock, with every
// blob it needs present.
oci::Descriptor from_store(const BaseSource& base, const store::Store& store)
{
    auto [name, tag] = store::ImageTag::parse(base.reference);
    std::optional<oci::Descriptor> found = store.find(name, tag);
    if (!found)
        throw not_in_store(base.reference, store.layout().dir());
    oci::Descriptor manifest{found->media_type, found->digest, found->size, {}, std::nullopt};
    store::walk_image(store.layout(), manifest, [&](const oci::Descriptor& blob, const std::string& referrer) {
        if (!store.layout().has_blob(blob.digest))
            throw Error(ErrorCode::not_found, referrer + " needs " + blob.digest.text() + ", which the store lacks",
                        "`dlenv fsck` says what is damaged; build the base image again");
        return true;
    });
    return manifest;
}

} // namespace

BaseSource locate_base(const std::string& reference, const std::filesystem::path& store_dir)
{
    try {
        return locate(reference, store_dir);
    } catch (const Error& e) {
        throw e.with_context("base image " + reference);
    }
}

std::optional<oci::Descriptor> import_base(const BaseSource& base, const store::Store& store)
{
    try {
        switch (base.kind) {
        case BaseSource::Kind::scratch: return std::nullopt;
        case BaseSource::Kind::store: return from_store(base, store);
        case BaseSource::Kind::archive: return oci::import_docker_archive(base.path, base.ref, store.layout());
        case BaseSource::Kind::layout: {
            oci::ImageLayout layout = oci::ImageLayout::open(base.path);
            return oci::copy_image(layout, oci::find_image(layout, base.ref), store.layout());
        }
        }
        return std::nullopt;
    } catch (const Error& e) {
        throw e.with_context("base image " + base.reference);
    }
}

} // namespace dlenv::build
