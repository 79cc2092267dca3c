#pragma once

#include "core/digest.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlenv::image {

// Set when the base image has none: the usual PATH, and where NVIDIA's CUDA images
// expect the driver libraries a container runtime mounts.
constexpr std::string_view k_default_path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
constexpr std::string_view k_default_library_path = "/usr/local/nvidia/lib:/usr/local/nvidia/lib64";

// What dlenv adds to the base image's config.
struct ConfigChanges {
    std::int64_t created = 0; // source_date_epoch
    std::vector<std::pair<std::string, std::string>> env; // set or replaced, in this order
    std::map<std::string, std::string> labels;
    std::vector<std::pair<Digest, std::string>> layers; // diff_id and created_by, in order
    std::string architecture = "amd64"; // of a scratch image's config; a base's config keeps its own
};

// The base's config (JSON, from a `docker save` or an OCI image; null for scratch) with
// `changes` applied: `created` and the new history entries dated to the epoch, PATH and
// LD_LIBRARY_PATH defaulted when the base has none, env entries replaced in place or
// appended, labels merged, the new diff_ids appended. Fields dlenv does not know are
// kept as the base wrote them.
nlohmann::json compose_config(const nlohmann::json& base, const ConfigChanges& changes);

} // namespace dlenv::image
