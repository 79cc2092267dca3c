#pragma once

#include "lock/lockfile.h"
#include "oci/compression.h"
#include "oci/layer_entry.h"

#include <filesystem>
#include <string>
#include <vector>

namespace dlenv::build {

// One layer dlenv adds on top of the base, before it is written.
struct PlannedLayer {
    std::string created_by; // the image history's words for it
    std::vector<oci::LayerEntry> entries;
    std::string cache_key; // sha256 over everything that decides the layer's bytes
};

// The layers of `lock`, in image order: the files the lock pins (sources relative to the
// lockfile's directory, each checked against its sha256 now and again as it is written;
// a changed file is Error(invalid_input) saying to lock again), then the validation kit
// under /opt/dlenv. A lock without files has no files layer.
std::vector<PlannedLayer> plan_layers(const lock::Lockfile& lock, oci::Compression compression);

} // namespace dlenv::build
