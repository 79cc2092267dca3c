#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace dlenv::verify {

// What a user does about a CDI spec dlenv cannot read.
inline constexpr const char* k_regenerate_cdi_spec
    = "regenerate the spec: `nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml`";

// A CDI spec written in YAML (what `nvidia-ctk cdi generate` writes by default) as the JSON
// document the same spec is in JSON, the way the CDI library reads YAML (sigs.k8s.io/yaml):
// plain scalars that spell null, a boolean or an integer become that, every other scalar a
// string. One document of at most 1 MiB; at most 32 levels deep and 100000 nodes with the
// aliases expanded, so that an alias bomb is refused instead of filling memory. A document
// in flow style ('{' or '[' first) is JSON and read as JSON.
// Error(invalid_input) naming `where`, the line and the column.
nlohmann::json cdi_yaml_document(const std::string& text, const std::string& where);

} // namespace dlenv::verify
