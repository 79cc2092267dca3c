#pragma once

#include "oci/layout.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace dlenv::store {

// The blobs checked so far, so that images sharing blobs read each once.
struct BlobTally {
    std::set<std::string> seen; // hex digests
    std::size_t blobs = 0; // found intact
    std::int64_t bytes = 0; // of those
};

// Checks every blob `root` reaches (an index's manifests, a manifest's config and layers)
// that `tally` has not seen: present, of its descriptor's size, hashing to its digest.
// Returns one line per blob that is not, "REFERRER -> DIGEST: WHAT" ("manifest
// sha256:ab12... -> sha256:cd34...: missing blob sha256:cd34..."), and one per manifest
// that cannot be parsed. Read-only.
std::vector<std::string> damaged_blobs(const oci::ImageLayout& layout, const oci::Descriptor& root, BlobTally& tally);

} // namespace dlenv::store
