#pragma once

#include "core/time_text.h"
#include "store/records.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace dlenv::workflow {

// What `dlenv promote` is asked to do.
struct PromoteRequest {
    std::string name; // the image name in the store
    std::filesystem::path store_dir;
    std::function<std::int64_t()> clock = now_seconds; // the time the history records
};

// Moves NAME's `production` tag to its `latest` image, in the store at `store_dir`
// (holding its writer lock), once verify::check_promotion finds a passing verification
// of every tier the image's lock requires; returns the history entry ("promote").
// Error(verification_failed) "NAME:latest cannot be promoted: PROBLEM; PROBLEM..." with
// a hint naming the required tiers when one is missing or failed; the other errors are
// check_promotion's. Nothing is recorded when one comes.
store::HistoryEntry promote_latest(const PromoteRequest& request);

} // namespace dlenv::workflow
