#pragma once

#include "core/canonical_json.h"
#include "core/sha256.h"

#include <nlohmann/json.hpp>

#include <string>

namespace dlenv::testing {

// A lock edited by hand and signed again: `json`'s canonical text with its digest
// recomputed, so only the checks after the digest's stand between it and a build.
inline std::string resigned_lock(nlohmann::json json)
{
    json.erase("digest");
    json["digest"] = "sha256:" + sha256_hex(to_canonical_json(json));
    return to_canonical_json(json);
}

} // namespace dlenv::testing
