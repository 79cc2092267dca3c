#include "registry/pull.h"

#include "core/parallel.h"
#include "registry/blob_transfer.h"

namespace dlenv::registry {

PullResult pull_image(
    Session& session, const ImageReference& reference, const oci::ImageLayout& layout, const PullOptions& options)
{
    PullResult result { resolve_image(session, reference, options.platform), {} };
    const FetchedManifest& fetched = result.image.manifest;
    oci::Manifest manifest = oci::Manifest::parse(fetched.bytes, reference.text());
    std::vector<oci::Descriptor> blobs = { manifest.config };
    blobs.insert(blobs.end(), manifest.layers.begin(), manifest.layers.end());

    for (const auto& blob : blobs)
        result.blobs.push_back({ blob.digest, blob.size, 0, BlobProgress::State::transferring });
    parallel_for(blobs.size(), options.parallel, [&](std::size_t i) {
        const oci::Descriptor& blob = blobs[i];
        if (layout.has_blob(blob.digest)) {
            result.blobs[i] = { blob.digest, blob.size, 0, BlobProgress::State::present };
        } else {
            download_blob(session, reference.repository, blob, layout, options.progress);
            result.blobs[i] = { blob.digest, blob.size, blob.size, BlobProgress::State::finished };
        }
        if (options.progress && result.blobs[i].state == BlobProgress::State::present)
            options.progress(result.blobs[i]);
    });
    layout.write_blob(fetched.bytes, fetched.media_type);
    return result;
}

} // namespace dlenv::registry
