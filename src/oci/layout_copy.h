#pragma once

#include "oci/layout.h"

#include <string>

namespace dlenv::oci {

// The image manifest `ref` names in a layout's index.json (its
// org.opencontainers.image.ref.name; "" when the layout holds exactly one image). An
// image index is followed to its manifest for `platform` (os and architecture), or one
// that names none. Error(not_found) lists the refs the layout has, or names the platform.
Descriptor find_image(const ImageLayout& layout, const std::string& ref, const Platform& platform);

// Copies an image manifest with its config and layers from one layout to another,
// verifying every blob; blobs the target already has are not copied again. Returns the
// manifest's descriptor (without annotations).
Descriptor copy_image(const ImageLayout& from, const Descriptor& manifest, const ImageLayout& to);

} // namespace dlenv::oci
