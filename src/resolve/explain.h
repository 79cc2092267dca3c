#pragma once

#include "matrix/matrix.h"
#include "resolve/query.h"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace dlenv::resolve {

// One matrix row an answer rests on: where it is, the facts of it the rules read, and
// where those facts come from, so a reviewer can audit the answer row by row.
struct RowUsed {
    std::string file; // "torch.json"
    std::string key; // "releases[line=2.1].variants[tag=cu118]"
    std::vector<std::pair<std::string, std::string>> facts; // in the order the row holds them
    matrix::Provenance provenance;
};

// The rows `check(matrix, query)` reads: the framework build (its line and variant), the
// toolkit release whose driver is the CUDA line's floor, the minor-version floor, the image
// gate (NVIDIA_REQUIRE_CUDA of the line's amd64 images) and the forward-compatibility row
// where a driver is asked about, each GPU's model and
// architecture, and the cuDNN releases the query names. Throws as `check` does on unknown
// names (a GPU, a framework line).
std::vector<RowUsed> rows_used(const matrix::Matrix& matrix, const Query& query);

// [{"file", "key", "facts": {...}, "sources": [{"key", "title", "url"}], "confidence", "note"?}]
nlohmann::json rows_json(const std::vector<RowUsed>& rows);

} // namespace dlenv::resolve
