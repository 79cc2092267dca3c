#pragma once

#include "oci/descriptor.h"
#include "oci/layout.h"

#include <filesystem>

namespace dlenv::oci {

// Applies one layer blob of `layout` onto the directory `root`, as a container runtime
// would: the compression (none, gzip, zstd) is detected from the blob's first bytes, the
// blob's size and digest are checked against the descriptor while it is read (a
// mismatch is Error(verification_failed), a missing blob Error(not_found)), OCI whiteouts
// (`.wh.NAME`, `.wh..wh..opq`) remove what lower layers put there. Refused with
// Error(invalid_input), before anything outside `root` is touched: absolute paths, `..`
// components, symlinks or hard links that resolve outside `root`, and device nodes.
// A stream that ends after the last entry without the end-of-archive blocks is accepted.
void apply_layer(const ImageLayout& layout, const Descriptor& layer, const std::filesystem::path& root);

} // namespace dlenv::oci
