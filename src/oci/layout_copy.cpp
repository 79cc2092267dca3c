#include "oci/layout_copy.h"

#include "core/closest.h"
#include "core/error.h"
#include "oci/media_types.h"

#include <fstream>

namespace dlenv::oci {
namespace {

Descriptor platform_manifest(
    const ImageLayout& layout, const Descriptor& index_descriptor, const std::string& ref, const Platform& platform)
{
    Index index = Index::parse(layout.read_blob(index_descriptor), layout.dir().string() + " " + ref);
    for (const auto& manifest : index.manifests)
        if (!manifest.platform
            || (manifest.platform->os == platform.os && manifest.platform->architecture == platform.architecture))
            return manifest;
    throw Error(ErrorCode::not_found,
        layout.dir().string() + ": image " + ref + " has no " + platform.os + "/" + platform.architecture
            + " manifest");
}

void copy_blob(const ImageLayout& from, const Descriptor& blob, const ImageLayout& to)
{
    if (to.has_blob(blob.digest))
        return;
    std::filesystem::path source = from.blob_path(blob.digest);
    std::ifstream in(source, std::ios::binary);
    if (!in)
        throw Error(ErrorCode::not_found, from.dir().string() + ": missing blob " + blob.digest.text());
    BlobWriter writer = to.new_blob();
    std::string buffer(1 << 20, '\0');
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        writer.write(std::string_view(buffer.data(), static_cast<std::size_t>(in.gcount())));
    }
    writer.commit_expecting(blob, "copy " + source.string());
}

} // namespace

Descriptor find_image(const ImageLayout& layout, const std::string& ref, const Platform& platform)
{
    Index index = layout.read_index();
    std::vector<std::string> refs;
    for (const auto& descriptor : index.manifests) {
        auto name = descriptor.annotations.find(k_ref_name_annotation);
        std::string found = name == descriptor.annotations.end() ? "" : name->second;
        refs.push_back(found);
        bool match = ref.empty() ? index.manifests.size() == 1 : found == ref;
        if (!match)
            continue;
        if (descriptor.media_type == media_type::k_index)
            return platform_manifest(layout, descriptor, ref, platform);
        return descriptor;
    }
    if (ref.empty())
        throw Error(ErrorCode::not_found,
            layout.dir().string() + " holds " + std::to_string(index.manifests.size()) + " images; name one",
            "add :REF, one of " + join_alternatives(refs, " and "));
    throw Error(ErrorCode::not_found, layout.dir().string() + " has no image " + ref,
        refs.empty() ? "the layout's index.json is empty" : "it has " + join_alternatives(refs, " and "));
}

Descriptor copy_image(const ImageLayout& from, const Descriptor& manifest, const ImageLayout& to)
{
    Manifest parsed = Manifest::parse(from.read_blob(manifest), from.dir().string() + " " + manifest.digest.text());
    copy_blob(from, parsed.config, to);
    for (const auto& layer : parsed.layers)
        copy_blob(from, layer, to);
    copy_blob(from, manifest, to);
    return Descriptor { manifest.media_type, manifest.digest, manifest.size, {}, std::nullopt };
}

} // namespace dlenv::oci
