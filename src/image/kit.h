#pragma once

#include "core/embedded_file.h"

#include <vector>

namespace dlenv::image {

// The validation kit's scripts (kit/ in the repository, compiled in), which the image
// carries in rootfs::k_kit_dir for `dlenv verify` to run in the container for its gpu and
// framework tiers; named by their path relative to that directory and sorted by it.
// `dlenv build` and the Dockerfile ship the same files.
const std::vector<EmbeddedFile>& embedded_kit();

} // namespace dlenv::image
