#pragma once

#include "oci/digest.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dlenv::build {

// What dlenv adds to the base image's config.
struct ConfigChanges {
    std::int64_t created = 0; // source_date_epoch
    std::vector<std::pair<std::string, std::string>> env; // set or replaced, in this order
    std::map<std::string, std::string> labels;
    std::vector<std::pair<oci::Digest, std::string>> layers; // diff_id and created_by, in order
};

// The base's config (JSON, from a `docker save` or an OCI image; null for scratch) with
// `changes` applied: `created` and the new history entries dated to the epoch, PATH and
// LD_LIBRARY_PATH defaulted when the base has none, env entries replaced in place or
// appended, labels merged, the new diff_ids appended. Fields dlenv does not know are
// kept as the base wrote them.
nlohmann::json compose_config(const nlohmann::json& base, const ConfigChanges& changes);

} // namespace dlenv::build
