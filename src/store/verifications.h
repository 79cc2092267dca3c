#pragma once

#include "store/store.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace dlenv::store {

// The latest result of one verification tier on one image.
struct TierVerification {
    std::string tier; // "static", "gpu", "framework"
    bool passed = false;
    std::string time; // RFC 3339, UTC
    nlohmann::json report; // the tier's findings, figures, host facts, as verify wrote them
    std::string source; // empty: verified here; else the registry reference it was pulled from
};

// What is on record for an image: DIR/dlenv/verifications/sha256-<hex>.json,
// "schema": "dlenv.verification/v1", canonical JSON, one entry per tier (with "source" when
// it came from a registry).
struct Verification {
    Digest image;
    std::map<std::string, TierVerification> tiers;
};

// The record of `image`; no tiers when it was never verified. Error(invalid_input) for a
// damaged record or another schema.
Verification read_verification(const Store& store, const Digest& image);

// Every record in the store, by image digest: the files sha256-<hex>.json of
// DIR/dlenv/verifications/ (other names there, such as an atomic write's temporary, are no
// records). Empty when nothing was verified; the errors of read_verification.
std::vector<Verification> read_verifications(const Store& store);

// Replaces the entries of `tiers` in the record of `image` (other tiers stay), writing
// the file atomically. The store must be open for writing, so that two verifications
// of one image never lose each other's tiers.
void record_verification(const Store& store, const Digest& image, const std::vector<TierVerification>& tiers);

} // namespace dlenv::store
