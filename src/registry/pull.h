#pragma once

#include "oci/layout.h"
#include "registry/manifests.h"
#include "registry/progress.h"

namespace dlenv::registry {

struct PullOptions {
    oci::Platform platform { "amd64", "linux", "" };
    std::size_t parallel = 4; // blobs in flight at once
    ProgressCallback progress;
};

struct PullResult {
    ResolvedImage image;
    std::vector<BlobProgress> blobs; // config and layers: finished, or present already
};

// Copies the image `reference` names (the platform's manifest when it names an index)
// into `layout`: blobs the layout lacks are downloaded in parallel and verified, then the
// manifest is written. Tags nothing: the caller records the image.
PullResult pull_image(
    Session& session, const ImageReference& reference, const oci::ImageLayout& layout, const PullOptions& options);

} // namespace dlenv::registry
