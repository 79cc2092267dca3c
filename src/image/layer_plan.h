#pragma once

#include "lock/lockfile.h"
#include "oci/compression.h"
#include "oci/layer_entry.h"
#include "store/store.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace dlenv::image {

// One layer dlenv adds on top of the base, before it is written.
struct PlannedLayer {
    std::string name; // "packages layer": what an error in making or writing it names
    std::string created_by; // the image history's words for it
    std::string cache_key; // sha256 over everything that decides the layer's bytes
    // Makes the layer's entries; called only when the layer cache has no layer under
    // `cache_key`, so an unchanged layer costs no unpacking. Files it makes go under
    // `staging`, an empty directory that lives until the layer is written; the wheels and
    // runtime it reads are `store`'s artifacts, fetched before.
    std::function<std::vector<oci::LayerEntry>(const store::Store& store, const std::filesystem::path& staging)>
        entries;
    bool reads_artifacts = false; // `entries` needs the lock's artifacts in the store
};

// The layers of `lock`, in image order: the Python runtime when the lock pins one (see
// runtime_layer.h), the files the lock pins (sources relative to the lockfile's
// directory, each checked against its sha256 now and again as it is written; a changed
// file is Error(invalid_input) saying to lock again), then the validation kit under
// /opt/dlenv. A lock without files has no
// files layer. The Python packages' layer (packages_layer.h) is not among them: where
// the packages go depends on the base's Python, so the build plans it above the runtime
// once the base is in the store.
std::vector<PlannedLayer> plan_layers(const lock::Lockfile& lock, oci::Compression compression);

// The cache key of a layer made from `inputs` (a JSON object naming what decides its
// entries, with its own format version): hashed with the layer writer's and
// compressor's formats and the epoch.
std::string layer_cache_key(const nlohmann::json& inputs, std::int64_t epoch, oci::Compression compression);

// Adds a directory entry (0755) for each directory above `path` that is not in
// `directories` yet, and records it there.
void add_parents(std::vector<oci::LayerEntry>& entries, std::set<std::string>& directories, const std::string& path);

} // namespace dlenv::image
