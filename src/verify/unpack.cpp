#include "verify/unpack.h"

#include "core/error.h"
#include "oci/layer_reader.h"

#include <chrono>

namespace dlenv::verify {

UnpackFigures unpack_image(
    const oci::ImageLayout& layout, const StoredImage& image, const std::filesystem::path& rootfs)
{
    auto start = std::chrono::steady_clock::now();
    std::error_code ec;
    std::filesystem::create_directories(rootfs, ec);
    if (ec)
        throw Error(ErrorCode::io, "create " + rootfs.string() + ": " + ec.message());
    UnpackFigures figures;
    for (std::size_t i = 0; i < image.manifest.layers.size(); ++i) {
        const oci::Descriptor& layer = image.manifest.layers[i];
        try {
            oci::apply_layer(layout, layer, rootfs);
        } catch (const Error& e) {
            throw e.with_context("unpack layer " + std::to_string(i + 1) + " " + layer.digest.short_text());
        }
        figures.layer_bytes += layer.size;
    }
    figures.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return figures;
}

} // namespace dlenv::verify
