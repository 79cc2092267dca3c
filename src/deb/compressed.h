#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace dlenv::deb {

// The bytes of an index file compressed with xz, gzip, bzip2 or zstd (told from its first
// bytes; plain bytes come back as they are), at most `limit` of them: a larger result is
// Error(invalid_input) naming `name` and the limit, as is damaged compression.
std::string decompress_index(std::string_view bytes, const std::string& name, std::size_t limit);

} // namespace dlenv::deb
