#pragma once

#include "oci/layout.h"
#include "registry/push.h"
#include "registry/session.h"

#include <string>
#include <vector>

namespace dlenv::registry {

// Pushes the image index `index` of `layout` to `repository`, then tags it with each of
// `tags`: every manifest it lists first, each as push_image pushes one (its blobs, then the
// manifest under its digest), and the index last, as the bytes the layout holds, so the
// registry never names an index whose manifests it lacks. Returns the blobs of every
// manifest, in the index's order.
PushResult push_index(Session& session, const std::string& repository, const oci::ImageLayout& layout,
    const oci::Descriptor& index, const std::vector<std::string>& tags, const PushOptions& options);

} // namespace dlenv::registry
