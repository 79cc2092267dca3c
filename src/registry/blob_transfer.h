#pragma once

#include "oci/layout.h"
#include "registry/progress.h"
#include "registry/session.h"

namespace dlenv::registry {

// GETs a blob into `layout`, hashing it as it streams in; it lands under its digest only
// when the bytes match the descriptor (Error(verification_failed) otherwise, with nothing
// stored). A transfer that drops is started over, as the session's retry policy allows.
void download_blob(Session& session, const std::string& repository, const oci::Descriptor& blob,
    const oci::ImageLayout& layout, const ProgressCallback& progress);

// GETs an image config (or another blob small enough to hold: at most 8 MiB) into memory
// and returns its bytes once they match the descriptor's digest and size
// (Error(verification_failed) otherwise). One request, retried as the session's policy
// allows; Error(network) for a descriptor or answer over the limit.
std::string get_config_blob(Session& session, const std::string& repository, const oci::Descriptor& config);

// Whether the repository already holds the blob (HEAD).
bool has_blob(Session& session, const std::string& repository, const oci::Descriptor& blob);

} // namespace dlenv::registry

namespace dlenv::registry {

struct UploadOptions {
    // Blobs up to this size go in one PUT; larger ones in PATCH chunks of this size, each
    // resumable from where the registry says the upload stands.
    std::int64_t chunk_size = 64 << 20;
    // A repository of the same registry to mount the blob from instead of uploading it.
    std::string mount_from;
};

// Uploads a blob of `layout` to `repository`: mounted from `mount_from` when the registry
// can, else pushed monolithically or in chunks. A chunk that fails is resumed at the
// offset the registry reports (GET of the upload URL); an upload the registry forgot is
// started again. Returns finished or mounted.
BlobProgress::State upload_blob(Session& session, const std::string& repository, const oci::Descriptor& blob,
    const oci::ImageLayout& layout, const UploadOptions& options, const ProgressCallback& progress);

} // namespace dlenv::registry
