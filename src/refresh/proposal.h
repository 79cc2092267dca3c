#pragma once

#include "matrix/matrix.h"
#include "refresh/published.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace dlenv::refresh {

// One row a refresh adds, or one fact of a row it extends.
struct Change {
    std::string file; // "torch.json"
    std::string key; // "releases[line=2.6].variants[tag=cu124]"
    bool added = true; // a new row; false: a list of an existing row grew
    std::string summary; // "cuda 12.4, cudnn 9.1.0.70, nccl 2.21.5"
    std::vector<std::string> hand_facts; // what the row still needs by hand: "arch_list", "driver_linux"
};

// What the vendors publish that the matrices lack, as changes to their files.
struct Proposal {
    std::vector<Change> changes;
    // Published releases no row can be derived for ("tensorflow 2.22.0: no row of line 2.22"),
    // each saying what its hand row needs.
    std::vector<std::string> hand_rows;
    std::map<std::string, std::string> files; // every matrix file, the changed ones rewritten

    bool empty() const { return changes.empty() && hand_rows.empty(); }
    // {"changes": [{"file", "key", "change": "added"|"extended", "summary", "hand_facts"}], "hand_rows": [...]}
    nlohmann::json to_json() const;
};

// The changes `published` implies for the matrix `matrix` loaded from `files`. Rows it adds
// cite the pages they come from (new keys in the file's `sources`); facts those pages do not
// give (minimum drivers, architecture lists, PTX, the PyPI default, Python's experimental
// versions, companions) are left null and listed in `hand_facts`. Lines older than the
// matrix's oldest are out of its scope and left alone. The refreshed files load as a
// matrix: Error(invalid_input) otherwise, naming the row.
Proposal propose(
    const std::map<std::string, std::string>& files, const matrix::Matrix& matrix, const Published& published);

} // namespace dlenv::refresh
