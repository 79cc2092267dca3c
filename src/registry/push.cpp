#include "registry/push.h"

#include "core/parallel.h"
#include "registry/manifests.h"

namespace dlenv::registry {

PushResult push_image(Session& session, const std::string& repository, const oci::ImageLayout& layout,
    const oci::Descriptor& manifest, const std::vector<std::string>& tags, const PushOptions& options)
{
    std::string bytes = layout.read_blob(manifest);
    oci::Manifest parsed = oci::Manifest::parse(bytes, manifest.digest.text());
    std::vector<oci::Descriptor> blobs = { parsed.config };
    blobs.insert(blobs.end(), parsed.layers.begin(), parsed.layers.end());
    PushResult result;
    for (const auto& blob : blobs)
        result.blobs.push_back({ blob.digest, blob.size, 0, BlobProgress::State::present });
    parallel_for(blobs.size(), options.parallel, [&](std::size_t i) {
        const oci::Descriptor& blob = blobs[i];
        BlobProgress& outcome = result.blobs[i];
        if (!has_blob(session, repository, blob)) {
            layout.verify_blob(blob); // a damaged blob is refused here, not by the registry
            outcome.state = upload_blob(session, repository, blob, layout, options.upload, options.progress);
            outcome.done = outcome.state == BlobProgress::State::finished ? blob.size : 0;
        }
        if (options.progress && outcome.state != BlobProgress::State::finished)
            options.progress(outcome);
    });
    for (const auto& tag : tags)
        put_manifest(session, repository, tag, manifest, bytes);
    return result;
}

} // namespace dlenv::registry
