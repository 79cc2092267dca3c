#pragma once

#include "registry/progress.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace dlenv::cli {

// [{"digest", "size", "state"}] for the blobs of a pull or push.
nlohmann::json blobs_json(const std::vector<registry::BlobProgress>& blobs);
// "3 uploaded, 1 mounted, 2 already there": the count of each state that occurred.
std::string describe_blobs(const std::vector<registry::BlobProgress>& blobs, const std::string& moved_verb);

} // namespace dlenv::cli
