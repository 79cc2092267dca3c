#pragma once

#include "core/embedded_file.h"

#include <string_view>
#include <vector>

namespace dlenv::image {

// Where the image carries the validation kit: the lock it was built from and the Python
// scripts `dlenv verify` runs in the container for its gpu and framework tiers.
constexpr std::string_view k_kit_dir = "/opt/dlenv/kit";

// The kit's scripts (kit/ in the repository, compiled in), named by their path relative
// to k_kit_dir and sorted by it. `dlenv build` and the Dockerfile ship the same files.
const std::vector<EmbeddedFile>& embedded_kit();

} // namespace dlenv::image
