#pragma once

#include "store/store.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace dlenv::store {

// A document kept beside an image: its lock or its SBOM, as the build wrote it or a
// registry sent it.
struct Attachment {
    std::string kind; // "lock", "sbom"
    std::string media_type; // "application/spdx+json", ...
    std::string sha256; // of the bytes, which live in the store's artifacts (artifacts.h)
    std::int64_t size = 0;
    std::string source; // "build", or the registry reference it was pulled from
};

// What is attached to `image`: DIR/dlenv/attachments/sha256-<hex>.json, "schema":
// "dlenv.attachments/v1", canonical JSON, one entry per kind. Empty when nothing is.
// Error(invalid_input) for a damaged record or another schema.
std::map<std::string, Attachment> read_attachments(const Store& store, const Digest& image);

// Stores `bytes` as an artifact and records them as the `kind` of `image` (replacing the
// one before, other kinds stay), atomically. Writers only.
Attachment attach(const Store& store, const Digest& image, const std::string& kind, const std::string& media_type,
    std::string_view bytes, const std::string& source);

// The bytes of an attachment, checked against its sha256; Error(verification_failed)
// when the artifact went missing or differs.
std::string read_attachment(const Store& store, const Attachment& attachment);

} // namespace dlenv::store
