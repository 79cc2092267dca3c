#pragma once

#include "oci/media_types.h"
#include "store/store.h"

#include <string>

// A small image in the store's layout: one layer with `content`, a config, a manifest.
inline dlenv::oci::Descriptor add_image(const dlenv::store::Store& store, const std::string& content)
{
    namespace oci = dlenv::oci;
    const oci::ImageLayout& layout = store.layout();
    oci::Descriptor layer = layout.write_blob(content, oci::media_type::k_layer_tar);
    oci::Descriptor config = layout.write_blob("{\"content\":\"" + content + "\"}", oci::media_type::k_config);
    oci::Manifest manifest{std::string(oci::media_type::k_manifest), config, {layer}, {}};
    return layout.write_blob(oci::to_blob_json(manifest.to_json()), oci::media_type::k_manifest);
}
