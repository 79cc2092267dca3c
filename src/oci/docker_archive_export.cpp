#include "oci/docker_archive.h"

#include "core/error.h"
#include "core/file.h"
#include "core/output_file.h"
#include "oci/media_types.h"
#include "oci/tar_writer.h"

#include <algorithm>

namespace dlenv::oci {
namespace {

LayerEntry directory(const std::string& path)
{
    return { path, LayerEntry::Type::directory, 0755, {}, {}, 0, {}, {} };
}

LayerEntry small_file(const std::string& path, std::string contents)
{
    std::int64_t size = static_cast<std::int64_t>(contents.size());
    return { path, LayerEntry::Type::file, 0644, {}, std::move(contents), size, {}, {} };
}

LayerEntry blob_file(const ImageLayout& layout, const Descriptor& blob)
{
    return { "blobs/sha256/" + blob.digest.hex(), LayerEntry::Type::file, 0644, layout.blob_path(blob.digest), {},
        blob.size, {}, {} };
}

// Docker 25 and later read index.json with these names; older Dockers read manifest.json.
Descriptor index_entry(const Descriptor& manifest, const std::string& repo_tag)
{
    Descriptor out { manifest.media_type, manifest.digest, manifest.size, {}, std::nullopt };
    out.annotations["io.containerd.image.name"] = repo_tag;
    out.annotations[k_ref_name_annotation] = repo_tag.substr(repo_tag.rfind(':') + 1);
    return out;
}

void write_archive(const ImageLayout& layout, const Descriptor& manifest, const std::vector<std::string>& repo_tags,
    std::int64_t source_date_epoch, const std::filesystem::path& archive)
{
    Manifest image = Manifest::parse(layout.read_blob(manifest), "manifest " + manifest.digest.text());
    nlohmann::json layers = nlohmann::json::array();
    std::vector<LayerEntry> entries = { directory("blobs"), directory("blobs/sha256"), blob_file(layout, manifest),
        blob_file(layout, image.config) };
    for (const auto& layer : image.layers) {
        layers.push_back("blobs/sha256/" + layer.digest.hex());
        if (std::none_of(entries.begin(), entries.end(), [&](const LayerEntry& e) { return e.path == layers.back(); }))
            entries.push_back(blob_file(layout, layer));
    }
    nlohmann::json docker_manifest
        = nlohmann::json::array({ { { "Config", "blobs/sha256/" + image.config.digest.hex() },
            { "RepoTags", repo_tags }, { "Layers", layers } } });
    Index index;
    for (const auto& tag : repo_tags)
        index.manifests.push_back(index_entry(manifest, tag));
    entries.push_back(small_file("manifest.json", to_blob_json(docker_manifest)));
    entries.push_back(small_file("index.json", to_blob_json(index.to_json())));
    entries.push_back(small_file("oci-layout", to_blob_json({ { "imageLayoutVersion", "1.0.0" } })));
    std::sort(entries.begin(), entries.end(), [](const LayerEntry& a, const LayerEntry& b) { return a.path < b.path; });

    OutputFile file(archive);
    TarWriter tar([&file](std::string_view bytes) { file.write(bytes); }, source_date_epoch);
    for (const auto& entry : entries)
        tar.add(entry);
    tar.finish();
    file.commit();
}

} // namespace

void export_docker_archive(const ImageLayout& layout, const Descriptor& manifest,
    const std::vector<std::string>& repo_tags, std::int64_t source_date_epoch, const std::filesystem::path& archive)
{
    // A damaged blob is named by its path in the store, which does not say whose it is.
    try {
        write_archive(layout, manifest, repo_tags, source_date_epoch, archive);
    } catch (const Error& e) {
        std::string image = repo_tags.empty() ? manifest.digest.text() : repo_tags.front();
        throw e.with_context("export " + image + " to " + archive.string());
    }
}

} // namespace dlenv::oci
