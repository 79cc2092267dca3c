#pragma once

#include "core/time_text.h"
#include "store/records.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace dlenv::workflow {

// What `dlenv rollback` is asked to do.
struct RollbackRequest {
    std::string name; // the image name in the store
    bool production = false; // move `production` back (--production) instead of `latest`
    std::filesystem::path store_dir;
    std::function<std::int64_t()> clock = now_seconds; // the time the history records
};

// Moves NAME's `latest` (store::roll_back) or `production` (store::roll_back_production)
// tag back one image, in the store at `store_dir` (holding its writer lock), and returns
// the history entry. Error(not_found) "the image DIGEST that NAME:TAG would go back to is
// no longer in the store" when its manifest blob is gone; the other errors are those of
// the tag policy. Nothing is recorded when one comes.
store::HistoryEntry roll_back_image(const RollbackRequest& request);

} // namespace dlenv::workflow
