#pragma once

#include "oci/media_types.h"
#include "store/store.h"
#include "store/tags.h"

#include <cstdint>
#include <string>

// A small image in the store's layout: one layer with `content`, a config, a manifest.
inline dlenv::oci::Descriptor add_image(const dlenv::store::Store& store, const std::string& content)
{
    namespace oci = dlenv::oci;
    const oci::ImageLayout& layout = store.layout();
    oci::Descriptor layer = layout.write_blob(content, oci::media_type::k_layer_tar);
    oci::Descriptor config = layout.write_blob("{\"content\":\"" + content + "\"}", oci::media_type::k_config);
    oci::Manifest manifest { std::string(oci::media_type::k_manifest), config, { layer }, {} };
    return layout.write_blob(oci::to_blob_json(manifest.to_json()), oci::media_type::k_manifest);
}

// Adds the image of `content` and commits its build as `name`'s latest, as `dlenv build` does.
inline dlenv::oci::Descriptor add_build(
    dlenv::store::Store& store, const std::string& name, const std::string& content, std::int64_t time)
{
    dlenv::oci::Descriptor image = add_image(store, content);
    dlenv::store::Records records = store.records();
    dlenv::store::record_build(records, name, image, "sha256:lock-" + content, time);
    store.commit(records);
    return image;
}

// The digest NAME:TAG points at, or "(none)".
inline std::string tag_digest(const dlenv::store::Store& store, const std::string& name, const std::string& tag)
{
    auto found = store.find(name, tag);
    return found ? found->digest.text() : "(none)";
}
