#pragma once

#include "oci/descriptor.h"
#include "store/store.h"
#include "store/verifications.h"

#include <string>
#include <vector>

namespace dlenv::verify {

// Whether NAME's `latest` may become `production`: the tiers its lock requires
// ("validation": {"tiers": [...]}, read from the lock the image carries) each have a
// passing verification on record for its digest; of an image index, for each platform's
// image.
struct PromotionCheck {
    oci::Descriptor image; // latest
    std::vector<std::string> required; // the lock's tiers
    std::vector<std::string> problems; // one sentence per tier that is not covered
    std::vector<std::string> gpu_models; // the GPUs the lock targets (stack.gpus[].name)
};

// Error(not_found) for an unknown name or one without `latest`; Error(verification_failed)
// naming each blob of the image (manifest, config, layers) that is missing or does not
// match its size and sha256, or when the image carries no lock or another lock than its
// manifest names.
PromotionCheck check_promotion(const store::Store& store, const std::string& name);
// The same against `records` (a registry's reports, one record per image they are of)
// instead of the store's records: an image of latest without one has no verification;
// `where` names them in the problems ("in REGISTRY/REPOSITORY").
PromotionCheck check_promotion(const store::Store& store, const std::string& name,
    const std::vector<store::Verification>& records, const std::string& where);

} // namespace dlenv::verify
