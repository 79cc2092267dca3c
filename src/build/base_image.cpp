#include "build/base_image.h"

#include "core/error.h"
#include "oci/docker_archive.h"
#include "oci/layout_copy.h"
#include "store/tags.h"

namespace dlenv::build {
namespace {

// Splits "PATH[:SUFFIX]" at the first colon after the path's last '/'.
std::pair<std::string, std::string> path_and_suffix(const std::string& text)
{
    std::size_t slash = text.rfind('/');
    std::size_t colon = text.find(':', slash == std::string::npos ? 0 : slash);
    if (colon == std::string::npos)
        return {text, ""};
    return {text.substr(0, colon), text.substr(colon + 1)};
}

std::optional<oci::Descriptor> find_in_store(const std::string& reference, const std::filesystem::path& store_dir)
{
    auto [name, tag] = path_and_suffix(reference);
    if (std::filesystem::exists(store_dir / "oci-layout"))
        if (auto found = store::Store::open(store_dir).find(name, tag.empty() ? std::string(store::k_latest) : tag))
            return oci::Descriptor{found->media_type, found->digest, found->size, {}, std::nullopt};
    std::string as_tag = tag.empty() ? "latest" : tag;
    throw Error(ErrorCode::not_found, "not in the store at " + store_dir.string(),
                "copy it into an OCI layout (`skopeo copy docker://" + reference + " oci:base:" + as_tag +
                    "`) and build with --base oci:base:" + as_tag +
                    ", or use --base docker-archive:FILE with a `docker save` tarball");
}

BaseSource locate(const std::string& reference, const std::filesystem::path& store_dir)
{
    if (reference == "scratch")
        return {reference, BaseSource::Kind::scratch, {}, {}, std::nullopt};
    if (reference.starts_with("oci:")) {
        auto [dir, ref] = path_and_suffix(reference.substr(4));
        if (!std::filesystem::exists(std::filesystem::path(dir) / "oci-layout"))
            throw Error(ErrorCode::not_found, dir + " is not an OCI image layout (no oci-layout file)");
        return {reference, BaseSource::Kind::layout, dir, ref, std::nullopt};
    }
    if (reference.starts_with("docker-archive:")) {
        auto [file, tag] = path_and_suffix(reference.substr(15));
        if (!std::filesystem::is_regular_file(file))
            throw Error(ErrorCode::not_found, "no such file: " + file,
                        "write it with `docker save IMAGE -o FILE`, or name another base");
        return {reference, BaseSource::Kind::archive, file, tag, std::nullopt};
    }
    return {reference, BaseSource::Kind::store, {}, {}, find_in_store(reference, store_dir)};
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
        case BaseSource::Kind::store: return base.stored;
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
