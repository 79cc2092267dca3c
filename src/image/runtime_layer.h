#pragma once

#include "image/layer_plan.h"
#include "lock/lockfile.h"
#include "oci/compression.h"
#include "oci/layer_entry.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::image {

// The layer of the lock's relocatable CPython, or nullopt when it pins none. Its cache
// key hashes the runtime archive's sha256, the prefix, the epoch and the compression.
std::optional<PlannedLayer> runtime_layer(const lock::Lockfile& lock, std::int64_t epoch, oci::Compression compression);

// The entries of a python-build-standalone install_only archive (a tar, gzip'd, whose one
// top directory `python/` holds bin/, lib/, include/, share/) placed under `prefix`
// ("usr/local", relative): the top directory stripped, modes and symbolic links kept as
// the archive has them, hard links pointed at their moved targets, and a 0755 directory
// for each parent the archive does not list, `prefix` and its parents included. File
// contents go to numbered files in `staging`, so no name from the archive is ever used
// on this machine. Refused with Error(invalid_input) naming `name` and the member:
// absolute paths, ".." components, members outside `python/`, devices, fifos and sockets.
std::vector<oci::LayerEntry> runtime_entries(const std::filesystem::path& archive, const std::string& name,
    const std::string& prefix, const std::filesystem::path& staging);

} // namespace dlenv::image
