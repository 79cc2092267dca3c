#pragma once

#include "core/digest.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::oci {

struct Platform {
    std::string architecture; // GOARCH spelling: amd64, arm64
    std::string os; // linux
    std::string variant; // optional: v8
};

// What points at a blob: its media type, digest and size, and optional annotations.
struct Descriptor {
    std::string media_type;
    Digest digest;
    std::int64_t size = 0;
    std::map<std::string, std::string> annotations;
    std::optional<Platform> platform;

    nlohmann::json to_json() const;
    // Reads a descriptor; `where` names it in errors ("index.json manifests[2]").
    static Descriptor from_json(const nlohmann::json& json, const std::string& where);
};

// An image manifest (schemaVersion 2, OCI or Docker media type).
struct Manifest {
    std::string media_type;
    Descriptor config;
    std::vector<Descriptor> layers;
    std::map<std::string, std::string> annotations;

    nlohmann::json to_json() const;
    static Manifest parse(std::string_view bytes, const std::string& where);
};

// An image index; index.json of an image layout is one.
struct Index {
    std::vector<Descriptor> manifests;
    std::map<std::string, std::string> annotations;

    nlohmann::json to_json() const;
    static Index parse(std::string_view bytes, const std::string& where);
};

// The bytes dlenv writes for a manifest, config or index: keys sorted, no whitespace.
// Registries keep these bytes as given, so equal values must give equal bytes.
std::string to_blob_json(const nlohmann::json& value);

} // namespace dlenv::oci
