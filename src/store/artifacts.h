#pragma once

#include "core/error.h"
#include "store/store.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace dlenv::store {

// The files builds read that come from outside the store (the wheels and the Python
// runtime a lock pins), content-addressed: <store>/dlenv/artifacts/sha256/<hex>, read-only,
// named by the sha256 of their bytes. Garbage collection leaves them alone: a lock that
// no image references any more may still be built again, and an artifact cannot be
// fetched twice differently. Removing the directory reclaims the space; builds fetch
// what they miss.
std::filesystem::path artifact_dir(const Store& store);

// The artifact with sha256 `sha256` (lowercase hex), when the store has it.
std::optional<std::filesystem::path> find_artifact(const Store& store, const std::string& sha256);

struct StoredArtifact {
    std::filesystem::path path;
    std::int64_t size = 0;
};

// Hands the bytes of an artifact to the store, in order.
using ArtifactSink = std::function<void(std::string_view bytes)>;
// The error of bytes that hash to `actual` instead of what was asked for.
using MismatchError = std::function<Error(const std::string& actual)>;

// Stores an artifact written by `write`: the bytes go to a temporary file in the artifacts
// directory and are hashed as they come; when `write` returns and they hash to `sha256`,
// the file is fsynced and renamed to its name, else nothing is stored and the error is
// `mismatch(actual)` (default: Error(verification_failed) "artifact has sha256 <actual>,
// expected <sha256>"). An exception from `write` stores nothing either and passes
// through. Several writers may store the same artifact at once; the last rename wins
// with equal bytes. Writers only.
StoredArtifact add_artifact(const Store& store, const std::string& sha256,
    const std::function<void(const ArtifactSink&)>& write, const MismatchError& mismatch = {});

} // namespace dlenv::store
