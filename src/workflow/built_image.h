#pragma once

#include "core/digest.h"
#include "lock/lockfile.h"
#include "oci/descriptor.h"
#include "store/store.h"
#include "verify/image.h"

#include <optional>
#include <string>
#include <vector>

namespace dlenv::workflow {

// An image of the store as `dlenv build` made it: its manifest and config, the lock it
// carries in /opt/dlenv and the base it was built on.
struct BuiltImage {
    verify::StoredImage image;
    lock::Lockfile lock; // read from its layers, held to the manifest's dev.dlenv.lock.digest
    // The manifest of its base (its org.opencontainers.image.base.digest annotation);
    // nullopt for scratch.
    std::optional<Digest> base;
};

// The image `descriptor` of the store, named `shown` in errors ("team/base:latest").
// Error(invalid_input) for an image dlenv did not build, whose lock does not match its
// annotation or whose base annotation is no digest.
BuiltImage read_built_image(const store::Store& store, const oci::Descriptor& descriptor, const std::string& shown);

// What made each layer, lowest first: the created_by of the config's history entries that
// made a layer, matched to the layers from the top; "" where the history says nothing.
std::vector<std::string> layer_history(const verify::StoredImage& image);

// The manifest NAME:TAG names in the store. Error(not_found) for an unknown name (with
// the closest ones) or tag.
oci::Descriptor find_tag(const store::Store& store, const std::string& name, const std::string& tag);

// The manifest `digest` of NAME that a tag or the history of NAME names. Error(not_found)
// for an unknown name or a digest NAME never had.
oci::Descriptor find_digest(const store::Store& store, const std::string& name, const Digest& digest);

} // namespace dlenv::workflow
