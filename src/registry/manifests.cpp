#include "registry/manifests.h"

#include "core/error.h"
#include "core/json_reader.h"
#include "oci/media_types.h"
#include "registry/platform.h"

#include <nlohmann/json.hpp>

namespace dlenv::registry {
namespace {

// The spec asks clients to expect at least 4 MB; anything much larger is not a manifest.
constexpr std::size_t k_max_manifest_bytes = 8 << 20;

const std::string k_accept = std::string(oci::media_type::k_index) + ", " + std::string(oci::media_type::k_manifest)
    + ", " + std::string(oci::media_type::k_docker_manifest_list) + ", "
    + std::string(oci::media_type::k_docker_manifest);

const std::string k_changed = "the registry or something between it and here changed the manifest; do not use "
                              "this image";

bool is_digest(const std::string& text)
{
    try {
        Digest::parse(text);
        return true;
    } catch (const Error&) {
        return false;
    }
}

// A tag names no digest to check the bytes against, but the registry names the digest
// of what it sends; a registry that sends none leaves nothing to check.
void check_content_digest(const http::Response& response, const Digest& received, const std::string& what)
{
    std::optional<std::string> named = response.header("Docker-Content-Digest");
    if (!named || *named == received.text())
        return;
    throw Error(ErrorCode::verification_failed,
        what + ": the registry sent bytes whose digest is " + received.text() + ", but its Docker-Content-Digest "
            + (is_digest(*named) ? "says " + *named : "is not a sha256 digest"),
        k_changed);
}

std::string media_type_of(const http::Response& response)
{
    std::string type = response.header("Content-Type").value_or("");
    type = type.substr(0, type.find(';'));
    if (!type.empty() && type != "application/json")
        return type;
    nlohmann::json body = JsonReader::parse_document_or_null(response.body);
    return body.is_object() ? body.value("mediaType", std::string(oci::media_type::k_manifest))
                            : std::string(oci::media_type::k_manifest);
}

} // namespace

bool FetchedManifest::is_index() const
{
    return media_type == oci::media_type::k_index || media_type == oci::media_type::k_docker_manifest_list;
}

oci::Descriptor FetchedManifest::descriptor() const
{
    return { media_type, digest, static_cast<std::int64_t>(bytes.size()), {}, std::nullopt };
}

FetchedManifest get_manifest(Session& session, const std::string& repository, const std::string& reference)
{
    std::string what = session.registry() + "/" + repository + " manifest " + reference;
    http::Response response = session.send(
        [&] {
            return http::Request { .url = "/v2/" + repository + "/manifests/" + reference,
                .headers = { { "Accept", k_accept } } };
        },
        pull_scope(repository), true);
    if (!response.ok())
        throw registry_error(response, what);
    if (response.body.size() > k_max_manifest_bytes)
        throw Error(ErrorCode::network,
            what + " is " + std::to_string(response.body.size()) + " bytes, too large for a manifest");
    FetchedManifest manifest { media_type_of(response), std::move(response.body), Digest::of("") };
    manifest.digest = Digest::of(manifest.bytes);
    if (!reference.starts_with("sha256:"))
        check_content_digest(response, manifest.digest, what);
    else if (Digest::parse(reference) != manifest.digest)
        throw Error(ErrorCode::verification_failed,
            what + ": the registry sent bytes whose digest is " + manifest.digest.text(), k_changed);
    return manifest;
}

void put_manifest(Session& session, const std::string& repository, const std::string& reference,
    const oci::Descriptor& manifest, const std::string& bytes)
{
    http::Response response = session.send(
        [&] {
            return http::Request { .method = "PUT",
                .url = "/v2/" + repository + "/manifests/" + reference,
                .headers = { { "Content-Type", manifest.media_type } },
                .body = bytes };
        },
        push_scope(repository), true);
    std::string what
        = "push manifest " + manifest.digest.text() + " as " + session.registry() + "/" + repository + ":" + reference;
    if (!response.ok())
        throw registry_error(response, what);
    std::optional<std::string> stored = response.header("Docker-Content-Digest");
    if (stored && *stored != manifest.digest.text())
        throw Error(ErrorCode::verification_failed, what + ": the registry stored it as " + *stored);
}

ResolvedImage resolve_image(Session& session, const ImageReference& reference, const oci::Platform& platform)
{
    FetchedManifest top = get_manifest(session, reference.repository, reference.manifest_reference());
    if (!top.is_index())
        return { top.digest, std::nullopt, top };
    oci::Index index = oci::Index::parse(top.bytes, reference.text());
    const oci::Descriptor& chosen = select_platform(index, platform, reference.text());
    return { top.digest, top.digest, get_manifest(session, reference.repository, chosen.digest.text()) };
}

} // namespace dlenv::registry
