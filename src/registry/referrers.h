#pragma once

#include "oci/descriptor.h"
#include "registry/session.h"

#include <map>
#include <string>
#include <vector>

namespace dlenv::registry {

// An OCI 1.1 artifact to attach to an image (image-spec manifest.md, "Guidelines for
// Artifact Usage"): an image manifest with `artifactType`, the empty config
// (application/vnd.oci.empty.v1+json, the 2 bytes "{}") and one layer holding `bytes`
// with the media type `artifact_type`.
struct Artifact {
    std::string artifact_type;
    std::string bytes;
    std::map<std::string, std::string> annotations; // the manifest's
};

// The manifest of `artifact` whose `subject` is `subject`: the bytes dlenv pushes, equal
// for equal inputs, so the same artifact pushed twice is one manifest.
std::string artifact_manifest(const Artifact& artifact, const oci::Descriptor& subject);

// How a registry lists what refers to a manifest (distribution-spec 1.1, "Listing
// Referrers"): its referrers API, or for a registry without one, the image index a
// client keeps under the tag sha256-<hex of the subject> (the tag schema fallback).
enum class ReferrersApi { api, tag_schema };

// Asks GET /v2/<repository>/referrers/<subject>: a registry with the API answers 200
// (an empty index for a subject it has no referrers of), one without it 404.
ReferrersApi referrers_api(Session& session, const std::string& repository, const Digest& subject);

// Pushes `artifact` to `repository` as a referrer of `subject`: its blobs when the
// registry lacks them, its manifest by digest, and under the tag schema its entry in the
// sha256-<hex> index (read, changed, written back: entries others put there stay, and an
// artifact listed already is not listed twice). Returns the manifest's descriptor.
oci::Descriptor push_artifact(Session& session, const std::string& repository, const oci::Descriptor& subject,
    const Artifact& artifact, ReferrersApi api);

// A manifest that names `subject`, as the listing describes it.
struct Referrer {
    oci::Descriptor manifest;
    std::string artifact_type;
};

// The referrers of `subject`, through the API (following its pages) or the tag schema;
// none when nothing refers to it. Error(network) for an answer that is no index.
std::vector<Referrer> list_referrers(Session& session, const std::string& repository, const Digest& subject);

// A referrer's manifest and its one layer, fetched and checked: the manifest against its
// digest, its `subject` against `subject`, its layer (at most 8 MiB) against its
// descriptor. Error(invalid_input) for an artifact that names another subject or does not
// hold one layer; Error(verification_failed) for bytes that do not match their digest.
struct FetchedArtifact {
    Digest manifest;
    std::string artifact_type;
    std::string layer_media_type;
    std::string bytes;
    std::map<std::string, std::string> annotations;
};
FetchedArtifact fetch_artifact(
    Session& session, const std::string& repository, const Referrer& referrer, const Digest& subject);

} // namespace dlenv::registry
