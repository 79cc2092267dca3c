#pragma once

#include "verify/image.h"

#include <filesystem>

namespace dlenv::verify {

struct UnpackFigures {
    std::int64_t layer_bytes = 0; // compressed, as stored
    double seconds = 0;
};

// Unpacks `image` into the empty or missing directory `rootfs`: its layers applied in
// order with oci::apply_layer (digests checked while reading, whiteouts applied, paths
// that would leave `rootfs` refused). Layers apply one after another because a later
// layer's whiteouts and replacements act on what the earlier ones wrote; within a layer,
// decompression and the digest run on a second thread beside the file writes, which
// keeps two cores busy without the staging and merging that parallel layers would need.
UnpackFigures unpack_image(
    const oci::ImageLayout& layout, const StoredImage& image, const std::filesystem::path& rootfs);

} // namespace dlenv::verify
