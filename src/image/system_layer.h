#pragma once

#include "image/base_system.h"
#include "image/layer_plan.h"
#include "lock/lockfile.h"
#include "oci/compression.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::image {

// The layer of the lock's system packages, and what making it found out.
struct SystemLayer {
    PlannedLayer layer;
    // Filled when the layer is made (not when it is reused): the maintainer scripts that
    // were not run, and the alternatives set up in their place.
    std::shared_ptr<std::vector<std::string>> notes;
};

// Plans the layer that installs the lock's system packages onto `base` without running a
// package manager, as dpkg --unpack and a configure without scripts would: each .deb
// (from the store's artifacts, sha256 checked as it is read) has its data.tar's files put
// in the layer, its directories followed through the base's links (merged /usr); dpkg's
// database gets each package's info files and a new /var/lib/dpkg/status (the base's
// stanzas plus the packages', "install ok installed"; it replaces the base's file, never a
// whiteout). Maintainer scripts are not run: the update-alternatives --install lines of
// postinst scripts with literal arguments are applied (deb::installed_alternatives), the
// rest is named in the notes. Refused with Error(invalid_input) naming the package and
// member: a path with "..", a device, fifo or socket, a hard link to no earlier file of
// the package, a file two packages ship. nullopt for a lock without system packages. A
// base whose status is not the one the lock was resolved against is Error(conflict).
std::optional<SystemLayer> system_packages_layer(
    const lock::Lockfile& lock, const BaseFilesystem& base, oci::Compression compression);

} // namespace dlenv::image
