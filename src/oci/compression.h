#pragma once

#include <string>
#include <string_view>

namespace dlenv::oci {

// How a layer's tar stream is stored. The choice and its settings are part of the
// layer's digest, so each one is pinned in code.
enum class Compression { none, gzip, zstd };

std::string_view layer_media_type(Compression compression);
std::string_view to_string(Compression compression);
// "gzip", "zstd" or "none"; throws Error(invalid_input) naming the choices otherwise.
Compression parse_compression(std::string_view text);
// The compression a layer media type names (OCI or Docker); throws Error(invalid_input)
// for a type that is not a layer.
Compression compression_of_media_type(std::string_view media_type);

} // namespace dlenv::oci
