#pragma once

#include "image/layer_plan.h"
#include "lock/lockfile.h"
#include "oci/compression.h"
#include "oci/layer_entry.h"
#include "pypi/installer.h"
#include "store/store.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

namespace dlenv::image {

// The layer of the lock's Python packages, installed with `scheme` (packages_target,
// base_python.h), or nullopt when it pins none (null: not locked, or []). Its cache key
// hashes the wheels' sha256 in the lock's order, the scheme's directories, interpreter and
// Python version, the installer's format, the epoch and the compression, so an unchanged
// closure reuses its layer without installing anything.
std::optional<PlannedLayer> packages_layer(
    const lock::Lockfile& lock, const pypi::InstallScheme& scheme, std::int64_t epoch, oci::Compression compression);

// Installs each wheel of `packages` from `store`'s artifacts into `staging`, as pip would
// with `scheme`, in the lock's order, and returns the tree's entries with every directory
// 0755 (so the build machine's umask cannot reach the layer). The store may be named by a
// relative path. A wheel missing from the artifacts is Error(not_found) saying to run
// `dlenv fetch`; the installer's errors pass through with the wheel's name.
std::vector<oci::LayerEntry> install_packages(const std::vector<lock::LockedPackage>& packages,
    const pypi::InstallScheme& scheme, const store::Store& store, const std::filesystem::path& staging);

} // namespace dlenv::image
