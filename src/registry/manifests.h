#pragma once

#include "core/image_reference.h"
#include "oci/descriptor.h"
#include "registry/session.h"

#include <string>

namespace dlenv::registry {

// A manifest or index exactly as the registry holds it: its digest is of these bytes.
struct FetchedManifest {
    std::string media_type;
    std::string bytes;
    Digest digest;

    bool is_index() const;
    oci::Descriptor descriptor() const;
};

// GETs manifests/<tag or digest>, accepting OCI and Docker schema 2 manifests and
// indexes. The bytes must match a digest reference, or for a tag the registry's
// Docker-Content-Digest when it sends one (Error(verification_failed) otherwise).
FetchedManifest get_manifest(Session& session, const std::string& repository, const std::string& reference);

// PUTs `bytes` as manifests/<tag or digest>; Error(verification_failed) when the registry
// says it stored other bytes.
void put_manifest(Session& session, const std::string& repository, const std::string& reference,
    const oci::Descriptor& manifest, const std::string& bytes);

// What a reference names, down to one platform's image manifest.
struct ResolvedImage {
    Digest digest; // what the tag points at: an index or a manifest
    std::optional<Digest> index; // set when that is an index
    FetchedManifest manifest; // the image manifest for the platform
};

ResolvedImage resolve_image(Session& session, const ImageReference& reference, const oci::Platform& platform);

} // namespace dlenv::registry
