#pragma once

#include "core/image_reference.h"
#include "oci/layout.h"
#include "registry/blob_transfer.h"

#include <string>
#include <vector>

namespace dlenv::registry {

struct PushOptions {
    std::size_t parallel = 4; // blobs in flight at once
    UploadOptions upload; // chunking; mount_from is tried for every blob the registry lacks
    ProgressCallback progress;
};

struct PushResult {
    std::vector<BlobProgress> blobs; // config and layers: present, mounted or finished
};

// Pushes the image `manifest` of `layout` to `repository`, then tags it with each of
// `tags`: blobs the registry has are skipped (HEAD), the others checked against their
// digests and mounted or uploaded in parallel; the manifest goes last, as the bytes the
// layout holds, so its digest is kept.
PushResult push_image(Session& session, const std::string& repository, const oci::ImageLayout& layout,
    const oci::Descriptor& manifest, const std::vector<std::string>& tags, const PushOptions& options);

} // namespace dlenv::registry
