#include "registry/referrers.h"

#include "core/error.h"
#include "core/json_reader.h"
#include "core/temp_directory.h"
#include "http/url.h"
#include "oci/layout.h"
#include "oci/media_types.h"
#include "registry/blob_transfer.h"
#include "registry/manifests.h"

namespace dlenv::registry {
namespace {

constexpr std::string_view k_empty_type = "application/vnd.oci.empty.v1+json";
constexpr std::string_view k_empty_config = "{}";
constexpr std::size_t k_max_index_bytes = 8 << 20;
constexpr int k_max_pages = 100;

std::string fallback_tag(const Digest& subject)
{
    return "sha256-" + subject.hex();
}

nlohmann::json descriptor_json(const oci::Descriptor& descriptor)
{
    return { { "mediaType", descriptor.media_type }, { "digest", descriptor.digest.text() },
        { "size", descriptor.size } };
}

// The Link header's next page (distribution-spec: `<URL>; rel="next"`), if any.
std::optional<std::string> next_page(const http::Response& response)
{
    std::optional<std::string> link = response.header("Link");
    if (!link || link->find("rel=\"next\"") == std::string::npos)
        return std::nullopt;
    std::size_t open = link->find('<'), close = link->find('>');
    if (open == std::string::npos || close == std::string::npos || close < open)
        return std::nullopt;
    return http::resolve_url(response.url, link->substr(open + 1, close - open - 1));
}

http::Response get_referrers_page(Session& session, const std::string& repository, const std::string& url)
{
    return session.send(
        [&] {
            return http::Request { .url = url, .headers = { { "Accept", std::string(oci::media_type::k_index) } } };
        },
        pull_scope(repository), true);
}

nlohmann::json parse_index(const std::string& bytes, const std::string& what)
{
    if (bytes.size() > k_max_index_bytes)
        throw Error(
            ErrorCode::network, what + " is " + std::to_string(bytes.size()) + " bytes, too large for an index");
    nlohmann::json index = JsonReader::parse_document_or_null(bytes);
    if (!index.is_object() || !index.contains("manifests") || !index["manifests"].is_array())
        throw Error(ErrorCode::network, what + " is no image index", "the registry answered something else");
    return index;
}

std::vector<Referrer> referrers_of(const nlohmann::json& index, const std::string& what)
{
    std::vector<Referrer> out;
    const nlohmann::json& manifests = index["manifests"];
    for (std::size_t i = 0; i < manifests.size(); ++i) {
        std::string where = what + " manifests[" + std::to_string(i) + "]";
        oci::Descriptor descriptor = oci::Descriptor::from_json(manifests[i], where);
        const nlohmann::json& entry = manifests[i];
        out.push_back({ descriptor,
            entry.contains("artifactType") && entry["artifactType"].is_string()
                ? entry["artifactType"].get<std::string>()
                : std::string() });
    }
    return out;
}

nlohmann::json empty_index()
{
    return { { "schemaVersion", 2 }, { "mediaType", std::string(oci::media_type::k_index) },
        { "manifests", nlohmann::json::array() } };
}

// The sha256-<hex> index as the registry holds it, or an empty one. A tag that names the
// subject itself (an image pushed under the tag form of its digest) lists no referrers.
nlohmann::json fallback_index(Session& session, const std::string& repository, const Digest& subject)
{
    try {
        FetchedManifest held = get_manifest(session, repository, fallback_tag(subject));
        if (held.digest == subject)
            return empty_index();
        return parse_index(held.bytes, session.registry() + "/" + repository + ":" + fallback_tag(subject));
    } catch (const Error& e) {
        if (e.code() != ErrorCode::not_found)
            throw;
        return empty_index();
    }
}

void add_to_fallback(Session& session, const std::string& repository, const Digest& subject,
    const oci::Descriptor& manifest, const Artifact& artifact)
{
    nlohmann::json index = fallback_index(session, repository, subject);
    for (const auto& entry : index["manifests"])
        if (entry.is_object() && entry.value("digest", std::string()) == manifest.digest.text())
            return;
    nlohmann::json entry = descriptor_json(manifest);
    entry["artifactType"] = artifact.artifact_type;
    if (!artifact.annotations.empty())
        entry["annotations"] = artifact.annotations;
    index["manifests"].push_back(entry);
    std::string bytes = oci::to_blob_json(index);
    oci::Descriptor descriptor { std::string(oci::media_type::k_index), Digest::of(bytes),
        static_cast<std::int64_t>(bytes.size()), {}, std::nullopt };
    put_manifest(session, repository, fallback_tag(subject), descriptor, bytes);
}

} // namespace

std::string artifact_manifest(const Artifact& artifact, const oci::Descriptor& subject)
{
    nlohmann::json layer = { { "mediaType", artifact.artifact_type }, { "digest", Digest::of(artifact.bytes).text() },
        { "size", artifact.bytes.size() } };
    nlohmann::json manifest = { { "schemaVersion", 2 }, { "mediaType", std::string(oci::media_type::k_manifest) },
        { "artifactType", artifact.artifact_type },
        { "config",
            { { "mediaType", std::string(k_empty_type) }, { "digest", Digest::of(k_empty_config).text() },
                { "size", k_empty_config.size() } } },
        { "layers", nlohmann::json::array({ layer }) }, { "subject", descriptor_json(subject) } };
    if (!artifact.annotations.empty())
        manifest["annotations"] = artifact.annotations;
    return oci::to_blob_json(manifest);
}

ReferrersApi referrers_api(Session& session, const std::string& repository, const Digest& subject)
{
    http::Response response
        = get_referrers_page(session, repository, "/v2/" + repository + "/referrers/" + subject.text());
    if (response.status == 404)
        return ReferrersApi::tag_schema;
    if (!response.ok())
        throw registry_error(response, "list the referrers of " + subject.text() + " in " + repository);
    return ReferrersApi::api;
}

oci::Descriptor push_artifact(Session& session, const std::string& repository, const oci::Descriptor& subject,
    const Artifact& artifact, ReferrersApi api)
{
    TempDirectory work(std::filesystem::temp_directory_path(), "dlenv-artifact-");
    oci::ImageLayout layout = oci::ImageLayout::open_or_create(work.path());
    std::vector<oci::Descriptor> blobs = { layout.write_blob(k_empty_config, k_empty_type),
        layout.write_blob(artifact.bytes, artifact.artifact_type) };
    for (const auto& blob : blobs)
        if (!has_blob(session, repository, blob))
            upload_blob(session, repository, blob, layout, {}, {});
    std::string bytes = artifact_manifest(artifact, subject);
    oci::Descriptor manifest { std::string(oci::media_type::k_manifest), Digest::of(bytes),
        static_cast<std::int64_t>(bytes.size()), artifact.annotations, std::nullopt };
    put_manifest(session, repository, manifest.digest.text(), manifest, bytes);
    if (api == ReferrersApi::tag_schema)
        add_to_fallback(session, repository, subject.digest, manifest, artifact);
    return manifest;
}

std::vector<Referrer> list_referrers(Session& session, const std::string& repository, const Digest& subject)
{
    std::string what = session.registry() + "/" + repository + " referrers of " + subject.text();
    std::string url = "/v2/" + repository + "/referrers/" + subject.text();
    std::vector<Referrer> out;
    for (int page = 0; page < k_max_pages; ++page) {
        http::Response response = get_referrers_page(session, repository, url);
        if (response.status == 404 && page == 0)
            return referrers_of(fallback_index(session, repository, subject), what);
        if (!response.ok())
            throw registry_error(response, what);
        std::vector<Referrer> listed = referrers_of(parse_index(response.body, what), what);
        out.insert(out.end(), listed.begin(), listed.end());
        std::optional<std::string> next = next_page(response);
        if (!next)
            return out;
        url = *next;
    }
    throw Error(ErrorCode::network, what + ": more than " + std::to_string(k_max_pages) + " pages");
}

FetchedArtifact fetch_artifact(
    Session& session, const std::string& repository, const Referrer& referrer, const Digest& subject)
{
    std::string what = "artifact " + referrer.manifest.digest.text() + " in " + session.registry() + "/" + repository;
    FetchedManifest fetched = get_manifest(session, repository, referrer.manifest.digest.text());
    nlohmann::json manifest = JsonReader::parse_document(what, fetched.bytes);
    const std::string hint = "remove the artifact from the registry, or push the image again with `dlenv push`";
    if (!manifest.is_object() || !manifest.contains("subject") || !manifest["subject"].is_object()
        || manifest["subject"].value("digest", std::string()) != subject.text())
        throw Error(ErrorCode::invalid_input, what + " does not name " + subject.text() + " as its subject", hint);
    if (!manifest.contains("layers") || !manifest["layers"].is_array() || manifest["layers"].size() != 1)
        throw Error(ErrorCode::invalid_input, what + " must hold exactly one layer", hint);
    oci::Descriptor layer = oci::Descriptor::from_json(manifest["layers"][0], what + " layers[0]");
    FetchedArtifact out { fetched.digest, manifest.value("artifactType", std::string()), layer.media_type,
        get_config_blob(session, repository, layer), {} };
    if (manifest.contains("annotations") && manifest["annotations"].is_object())
        for (const auto& [key, value] : manifest["annotations"].items())
            if (value.is_string())
                out.annotations[key] = value.get<std::string>();
    return out;
}

} // namespace dlenv::registry
