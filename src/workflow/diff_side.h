#pragma once

#include "core/digest.h"
#include "lock/lockfile.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::workflow {

// One layer of an image, lowest first: its blob and what its history entry says made it.
struct LayerFacts {
    Digest digest;
    std::int64_t size = 0;
    std::string created_by; // "" where the config's history says nothing
};

enum class TierOutcome { passed, failed, never };

// What an image of the store knows beyond the lock it carries.
struct ImageFacts {
    std::string name; // "team/base"
    Digest digest; // the manifest's
    std::optional<Digest> base; // the manifest of the base it was built on; nullopt for scratch
    std::vector<LayerFacts> layers;
    // The latest outcome of each tier on record for the digest, and of each tier its lock
    // requires (never where none is on record): static, gpu, framework, acceptance, then
    // any other by name.
    std::vector<std::pair<std::string, TierOutcome>> verifications;

    std::int64_t size() const; // the layers' bytes
};

// One side of a diff: a lock file, or an image of the store with the lock it carries.
struct DiffSide {
    std::string shown; // the argument as given
    lock::Lockfile lock;
    std::optional<ImageFacts> image; // nullopt for a lock file
};

// Reads `text` as a lock file or as an image of the store at `store_dir`
// (NAME[:TAG] or NAME@sha256:...). Text that ends in .json or .lock, starts with '/', "./"
// or "../", or is no image name is a file; other text is the file when one exists, else
// the image. Error(invalid_input) when it names both an existing file and an image of the
// store, naming both; Error(not_found) when it names neither; the errors of reading a
// lock, the store and the image otherwise. A lock or image of several platforms is read
// for `platform` (the lock as that platform's build reads it, the index's image for it);
// "" reads a lock's first platform and an index's image for this machine.
DiffSide read_diff_side(const std::filesystem::path& store_dir, const std::string& text, const std::string& platform);

std::string_view tier_outcome_name(TierOutcome outcome); // "passed", "failed", "not run"

} // namespace dlenv::workflow
