#pragma once

#include "oci/descriptor.h"
#include "store/store.h"

#include <optional>
#include <string>

namespace dlenv::store {

// A layer dlenv built, remembered under a key that hashes everything it was made from
// (the entries, their content digests, the epoch, the compression), so a build whose
// inputs did not change reuses the blob instead of compressing it again.
struct CachedLayer {
    oci::Descriptor descriptor;
    Digest diff_id;
};

// The layer built from `key`, when it is remembered and its blob is still stored.
std::optional<CachedLayer> find_cached_layer(const Store& store, const std::string& key);
// Remembers a layer (one small file per key, written atomically). Writers only.
void remember_layer(const Store& store, const std::string& key, const CachedLayer& layer);
// Forgets layers whose blobs are gone; returns how many. Writers only.
std::size_t forget_missing_layers(const Store& store);

} // namespace dlenv::store
