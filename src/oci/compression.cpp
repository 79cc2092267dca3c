#include "oci/compression.h"

#include "core/error.h"
#include "oci/media_types.h"

namespace dlenv::oci {

std::string_view layer_media_type(Compression compression)
{
    switch (compression) {
    case Compression::none:
        return media_type::k_layer_tar;
    case Compression::gzip:
        return media_type::k_layer_gzip;
    case Compression::zstd:
        return media_type::k_layer_zstd;
    }
    return media_type::k_layer_tar;
}

std::string_view to_string(Compression compression)
{
    switch (compression) {
    case Compression::none:
        return "none";
    case Compression::gzip:
        return "gzip";
    case Compression::zstd:
        return "zstd";
    }
    return "none";
}

Compression parse_compression(std::string_view text)
{
    for (Compression c : { Compression::gzip, Compression::zstd, Compression::none })
        if (text == to_string(c))
            return c;
    throw Error(
        ErrorCode::invalid_input, "unknown compression \"" + std::string(text) + "\"", "choose gzip, zstd or none");
}

Compression compression_of_media_type(std::string_view media_type)
{
    if (media_type == media_type::k_layer_gzip || media_type == media_type::k_docker_layer_gzip)
        return Compression::gzip;
    if (media_type == media_type::k_layer_zstd)
        return Compression::zstd;
    if (media_type == media_type::k_layer_tar || media_type == media_type::k_docker_layer_tar)
        return Compression::none;
    throw Error(ErrorCode::invalid_input, "not a layer media type: " + std::string(media_type));
}

} // namespace dlenv::oci
