#include "oci/docker_archive.h"

#include "core/error.h"
#include "core/json_reader.h"
#include "core/sha256.h"
#include "oci/compression.h"
#include "oci/file_source.h"
#include "oci/media_types.h"
#include "oci/tar_reader.h"
#include "rootfs/path.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>

namespace dlenv::oci {
namespace {

constexpr std::string_view k_manifest_member = "manifest.json";
constexpr int k_max_aliases = 16;

struct Member {
    Digest digest;
    std::int64_t size;
    Compression compression;
};

Compression detect(std::string_view head)
{
    if (head.starts_with("\x1f\x8b"))
        return Compression::gzip;
    if (head.starts_with("\x28\xb5\x2f\xfd"))
        return Compression::zstd;
    return Compression::none;
}

std::string clean_name(std::string_view name)
{
    while (name.starts_with("./"))
        name.remove_prefix(2);
    return std::string(name);
}

// The archive's members, each stored as a blob of the layout while the archive is read
// once; manifest.json is kept in memory instead.
class Members {
public:
    Members(const std::filesystem::path& archive, const ImageLayout& layout)
        : m_archive(archive.string())
    {
        FileSource file(archive);
        TarReader tar([&] { return file.next(); }, "docker archive " + m_archive);
        while (auto entry = tar.next()) {
            std::string name = clean_name(entry->path);
            if (entry->type == TarEntry::Type::file)
                store(name, tar, layout);
            else if (entry->type == TarEntry::Type::hardlink)
                m_aliases[name] = clean_name(entry->link_target);
            else if (entry->type == TarEntry::Type::symlink) // docker save links repeated layers
                m_aliases[name] = resolve_link(name, entry->link_target);
        }
    }

    const std::optional<std::string>& manifest() const { return m_manifest; }

    // The member `name`, following links; `field` says where the name came from.
    const Member& at(std::string name, const std::string& field) const
    {
        for (int hops = 0; hops < k_max_aliases && m_aliases.contains(name); ++hops)
            name = m_aliases.at(name);
        auto it = m_blobs.find(name);
        if (it == m_blobs.end())
            throw Error(ErrorCode::invalid_input,
                m_archive + ": " + field + " names " + name + ", which the archive lacks",
                "the archive is incomplete: save the image again");
        constexpr std::string_view by_digest = "blobs/sha256/";
        if (name.starts_with(by_digest) && name.substr(by_digest.size()) != it->second.digest.hex())
            throw Error(ErrorCode::verification_failed, m_archive + ": " + name + " does not match its digest",
                "the archive is damaged: save the image again");
        return it->second;
    }

private:
    void store(const std::string& name, TarReader& tar, const ImageLayout& layout)
    {
        if (name == k_manifest_member) {
            m_manifest.emplace();
            for (std::string_view piece = tar.read_data(); !piece.empty(); piece = tar.read_data())
                m_manifest->append(piece);
            return;
        }
        BlobWriter blob = layout.new_blob();
        std::string head;
        for (std::string_view piece = tar.read_data(); !piece.empty(); piece = tar.read_data()) {
            if (head.size() < 4)
                head.append(piece.substr(0, 4 - head.size()));
            blob.write(piece);
        }
        BlobWriter::Committed committed = blob.commit();
        m_blobs.insert_or_assign(name, Member { committed.digest, committed.size, detect(head) });
    }

    // A link's target is relative to the link's directory; one that climbs out names
    // no member and is reported as missing where it is used.
    static std::string resolve_link(const std::string& name, const std::string& target)
    {
        std::size_t slash = name.find_last_of('/');
        std::string joined = slash == std::string::npos ? target : name.substr(0, slash + 1) + target;
        return rootfs::normalize_path(joined).value_or(joined);
    }

    std::string m_archive;
    std::optional<std::string> m_manifest;
    std::map<std::string, Member> m_blobs;
    std::map<std::string, std::string> m_aliases;
};

Error malformed(const std::string& archive, const std::string& what)
{
    return Error(ErrorCode::invalid_input, archive + ": " + what,
        "the archive is not one `docker save` wrote: save the image again");
}

nlohmann::json parse_json(std::string_view bytes, const std::string& archive, const std::string& member)
{
    try {
        return JsonReader::parse_document(member, bytes);
    } catch (const Error& e) {
        throw malformed(archive, e.message());
    }
}

// The manifest.json entry whose RepoTags hold `tag`, or the only one when `tag` is "".
const nlohmann::json& pick_image(const nlohmann::json& images, const std::string& tag, const std::string& archive)
{
    if (!images.is_array() || images.empty())
        throw malformed(archive, "manifest.json must be a non-empty array of images");
    std::string tags;
    for (const auto& image : images) {
        if (!image.is_object())
            throw malformed(archive, "manifest.json holds an image that is not an object");
        const auto repo_tags = image.value("RepoTags", nlohmann::json::array());
        for (const auto& repo_tag : repo_tags) {
            if (!tag.empty() && repo_tag == tag)
                return image;
            if (repo_tag.is_string())
                tags += (tags.empty() ? "" : ", ") + repo_tag.get<std::string>();
        }
    }
    if (tag.empty() && images.size() == 1)
        return images.front();
    std::string hint = "name one of the tags it holds: " + (tags.empty() ? "(none)" : tags);
    if (tag.empty())
        throw Error(ErrorCode::invalid_input, archive + ": holds " + std::to_string(images.size()) + " images", hint);
    throw Error(ErrorCode::not_found, archive + ": has no image tagged " + tag, hint);
}

std::string string_field(
    const nlohmann::json& json, const char* key, const std::string& archive, const std::string& where)
{
    if (!json.contains(key) || !json.at(key).is_string())
        throw malformed(archive, where + " \"" + key + "\" must be a string");
    return json.at(key).get<std::string>();
}

// The config's rootfs.diff_ids, or null when it has none.
nlohmann::json diff_ids_of(const nlohmann::json& config)
{
    if (!config.is_object() || !config.contains("rootfs") || !config.at("rootfs").is_object())
        return nullptr;
    return config.at("rootfs").value("diff_ids", nlohmann::json());
}

// The sha256 of the layer's tar stream, which the config's diff_ids name.
Digest diff_id_of(const ImageLayout& layout, const Member& layer, const std::string& archive)
{
    if (layer.compression == Compression::none)
        return layer.digest;
    FileSource blob(layout.blob_path(layer.digest));
    Sha256 hash;
    decompress(
        [&] { return blob.next(); }, "docker archive " + archive, [&](std::string_view piece) { hash.update(piece); });
    return Digest::from_hex(hash.hex_digest());
}

} // namespace

Descriptor import_docker_archive(
    const std::filesystem::path& archive, const std::string& tag, const ImageLayout& layout)
{
    const std::string name = archive.string();
    Members members(archive, layout);
    if (!members.manifest())
        throw malformed(name, "no manifest.json");
    const nlohmann::json images = parse_json(*members.manifest(), name, "manifest.json");
    const nlohmann::json& image = pick_image(images, tag, name);

    std::string config_name = string_field(image, "Config", name, "manifest.json");
    const Member& config_member = members.at(config_name, "manifest.json Config");
    Descriptor config { std::string(media_type::k_config), config_member.digest, config_member.size, {}, std::nullopt };
    const nlohmann::json config_json = parse_json(layout.read_blob(config), name, config_name);
    const nlohmann::json diff_ids = diff_ids_of(config_json);

    const auto layer_names = image.value("Layers", nlohmann::json());
    if (!layer_names.is_array())
        throw malformed(name, "manifest.json \"Layers\" must be an array");
    if (!diff_ids.is_array() || diff_ids.size() != layer_names.size())
        throw malformed(name,
            config_name + " rootfs.diff_ids must list one digest per layer (" + std::to_string(layer_names.size())
                + ")");

    Manifest manifest { std::string(media_type::k_manifest), config, {}, {} };
    for (std::size_t i = 0; i < layer_names.size(); ++i) {
        std::string field = "manifest.json Layers[" + std::to_string(i) + "]";
        if (!layer_names[i].is_string())
            throw malformed(name, field + " must be a string");
        const Member& layer = members.at(layer_names[i].get<std::string>(), field);
        std::string where = config_name + " rootfs.diff_ids[" + std::to_string(i) + "]";
        if (!diff_ids[i].is_string())
            throw malformed(name, where + " must be a string");
        Digest actual = diff_id_of(layout, layer, name);
        if (diff_ids[i].get<std::string>() != actual.text())
            throw Error(ErrorCode::verification_failed,
                name + ": " + where + " is " + diff_ids[i].get<std::string>() + " but "
                    + layer_names[i].get<std::string>() + " hashes to " + actual.text(),
                "the archive is damaged: save the image again");
        manifest.layers.push_back(Descriptor {
            std::string(layer_media_type(layer.compression)), layer.digest, layer.size, {}, std::nullopt });
    }
    return layout.write_blob(to_blob_json(manifest.to_json()), media_type::k_manifest);
}

} // namespace dlenv::oci
