#pragma once

#include "image/layer_plan.h"
#include "lock/lockfile.h"
#include "oci/compression.h"
#include "oci/layer_entry.h"
#include "store/store.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

namespace dlenv::image {

// The layer of the lock's Python packages, or nullopt when it pins none (null: not
// locked, or []). Its cache key hashes the wheels' sha256 in the lock's order, the
// prefix, the Python version, the installer's format, the epoch and the compression, so
// an unchanged closure reuses its layer without installing anything.
std::optional<PlannedLayer> packages_layer(
    const lock::Lockfile& lock, std::int64_t epoch, oci::Compression compression);

// Installs each wheel of `packages` from `store`'s artifacts into `staging`, as pip would
// for a CPython `python` (PythonEnvironment::version) under `prefix` ("/usr/local"), in
// the lock's order, and returns the tree's entries with every directory 0755 (so the
// build machine's umask cannot reach the layer). A wheel missing from the artifacts is
// Error(not_found) saying to run `dlenv fetch`; the installer's errors pass through with
// the wheel's name.
std::vector<oci::LayerEntry> install_packages(const std::vector<lock::LockedPackage>& packages,
    const lock::PythonEnvironment& python, const store::Store& store, const std::filesystem::path& staging);

} // namespace dlenv::image
