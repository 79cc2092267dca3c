#pragma once

#include "oci/layout.h"

#include <functional>
#include <string>

namespace dlenv::store {

// Visits the blobs `root` references, root first: a manifest's config and layers, an
// index's manifests (recursively). `visit` sees each descriptor and the name of what
// refers to it; it returns false for a blob that cannot be read, which stops the walk
// below it. Manifests and indexes are parsed from the layout after `visit` accepted them.
void walk_image(const oci::ImageLayout& layout, const oci::Descriptor& root,
    const std::function<bool(const oci::Descriptor&, const std::string& referrer)>& visit);

} // namespace dlenv::store
