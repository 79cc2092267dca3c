#pragma once

#include <cstdint>
#include <string>

namespace dlenv::cli {

// Bytes as people read them, in powers of 1000: "512 B", "48.2 MB".
std::string human_size(std::int64_t bytes);

} // namespace dlenv::cli
