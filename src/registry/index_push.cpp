#include "registry/index_push.h"

#include "registry/manifests.h"

namespace dlenv::registry {

PushResult push_index(Session& session, const std::string& repository, const oci::ImageLayout& layout,
    const oci::Descriptor& index, const std::vector<std::string>& tags, const PushOptions& options)
{
    std::string bytes = layout.read_blob(index);
    PushResult result;
    for (const auto& manifest : oci::Index::parse(bytes, index.digest.text()).manifests) {
        PushResult pushed = push_image(session, repository, layout, manifest, { manifest.digest.text() }, options);
        result.blobs.insert(result.blobs.end(), pushed.blobs.begin(), pushed.blobs.end());
    }
    for (const auto& tag : tags)
        put_manifest(session, repository, tag, index, bytes);
    return result;
}

} // namespace dlenv::registry
