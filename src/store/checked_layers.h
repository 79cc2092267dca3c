#pragma once

#include "oci/descriptor.h"
#include "store/store.h"

#include <cstddef>

namespace dlenv::store {

// Checks, once per image, that the layers of a manifest that entered the store from
// outside (a pull, a `--base` import) may be unpacked: they are applied in order to a
// scratch root in the store's staging with oci::apply_layer, the reader verify unpacks
// with, so a layer that would write outside the root, through a link or a `..` of its own
// or of a lower layer, or make a device node is refused when it arrives rather than when
// it is verified. A passing image is remembered by its manifest digest
// (dlenv/checked/sha256-<hex>) and not unpacked again. Error(invalid_input) from the
// reader, with the layer's number and digest as context; Error(not_found) or
// Error(verification_failed) for a missing or damaged blob. Writers only.
void check_layers_once(const Store& store, const oci::Descriptor& manifest);

// Forgets the checks of manifests whose blobs are gone; returns how many. Writers only.
std::size_t forget_missing_checks(const Store& store);

} // namespace dlenv::store
