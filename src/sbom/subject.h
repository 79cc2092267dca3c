#pragma once

#include "core/digest.h"
#include "lock/lockfile.h"
#include "oci/descriptor.h"

#include <optional>
#include <string>
#include <vector>

namespace dlenv::sbom {

// A layer dlenv put on top of the base, with the history entry that says what it holds.
struct AddedLayer {
    oci::Descriptor descriptor;
    std::string created_by; // "dlenv: python packages (12)"
};

// What a bill of materials is written for: an image of the store, the lock it was built
// from (what it pins) and the layers dlenv added to its base.
struct Subject {
    std::string name; // the store's: "team/base"
    Digest image; // the manifest's digest; the document is the same under each tag naming it
    lock::Lockfile lock;
    // The manifest of the base it was built on (its org.opencontainers.image.base.digest
    // annotation); nullopt for scratch.
    std::optional<Digest> base;
    std::vector<AddedLayer> layers; // lowest first
};

} // namespace dlenv::sbom
