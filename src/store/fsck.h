#pragma once

#include "store/store.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dlenv::store {

struct FsckReport {
    std::vector<std::string> problems; // missing or damaged content: the store is not sound
    std::vector<std::string> notes; // harmless leftovers a writer repairs or gc removes
    std::size_t checked_blobs = 0;
    std::size_t checked_artifacts = 0;
    std::int64_t checked_bytes = 0; // of blobs and artifacts

    bool ok() const { return problems.empty(); }
};

// Checks that every blob a tag or an index.json entry references is present and matches
// its digest and size, reading each once (blob_check.h), and that every artifact's bytes
// hash to its name ("artifact <hex> has sha256 <actual>: ..."). Tags the records lost and
// took back from index.json are a problem (store.h: the next writer records them); an
// index.json that lags the records and what killed writers left (leftovers.h) are notes.
// Read-only.
FsckReport check_store(const Store& store);

} // namespace dlenv::store
