#pragma once

#include "core/image_reference.h"
#include "core/time_text.h"
#include "store/records.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace dlenv::workflow {

// What `dlenv promote` is asked to do.
struct PromoteRequest {
    std::string name; // the image name in the store
    std::filesystem::path store_dir;
    std::function<std::int64_t()> clock = now_seconds; // the time the history records
    // Promote on the reports this registry image holds (registry_documents.h), not the
    // store's records: what it names must be NAME:latest (its manifest, or its index and
    // then each platform's image needs its reports).
    std::optional<ImageReference> from_registry;
    bool insecure = false; // as RegistryOptions::insecure
    // Also require a passing gpu-tier report from a node with each GPU model the lock targets.
    bool require_gpu_models = false;
};

// Moves NAME's `production` tag to its `latest` image, in the store at `store_dir`
// (holding its writer lock), once verify::check_promotion finds a passing verification
// of every tier the image's lock requires; returns the history entry ("promote").
// Error(verification_failed) "NAME:latest cannot be promoted: PROBLEM; PROBLEM..." with
// a hint naming the required tiers when one is missing or failed; the other errors are
// check_promotion's. With `from_registry`, Error(verification_failed) when the registry
// names another image or index, a problem naming the platform and tier for each image of
// an index without a passing report of a required tier there, and fetch_documents' errors
// for an artifact that does not hold. With `require_gpu_models`, each lock GPU without such a report is a problem.
// Nothing is recorded when one comes.
store::HistoryEntry promote_latest(const PromoteRequest& request);

} // namespace dlenv::workflow
