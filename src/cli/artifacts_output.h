#pragma once

#include "image/fetch.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace dlenv::cli {

// [{"name", "url", "sha256", "bytes", "state": "fetched" | "cached"}], in the lock's order.
nlohmann::json artifacts_json(const std::vector<image::FetchedArtifact>& artifacts);
// "2 fetched (1234 bytes), 8 already in the store (5678 bytes)".
std::string describe_artifacts(const std::vector<image::FetchedArtifact>& artifacts);

} // namespace dlenv::cli
