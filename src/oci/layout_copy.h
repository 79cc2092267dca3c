#pragma once

#include "oci/layout.h"

#include <string>

namespace dlenv::oci {

// The image manifest `ref` names in a layout's index.json (its
// org.opencontainers.image.ref.name; "" when the layout holds exactly one image). An
// image index is followed to its linux/amd64 manifest. Error(not_found) lists the refs
// the layout has.
Descriptor find_image(const ImageLayout& layout, const std::string& ref);

// Copies an image manifest with its config and layers from one layout to another,
// verifying every blob; blobs the target already has are not copied again. Returns the
// manifest's descriptor (without annotations).
Descriptor copy_image(const ImageLayout& from, const Descriptor& manifest, const ImageLayout& to);

} // namespace dlenv::oci
