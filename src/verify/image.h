#pragma once

#include "oci/descriptor.h"
#include "oci/layout.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::verify {

// What the image config says to run (config.Entrypoint + config.Cmd, Env, WorkingDir, User).
struct ImageProcess {
    std::vector<std::string> args;
    std::vector<std::string> env; // "KEY=value"
    std::string cwd = "/";
    std::string user; // as the config spells it: "", "1000", "1000:1000", "name"
};

// A manifest of the store and its config, both checked against their digests.
struct StoredImage {
    oci::Descriptor descriptor;
    oci::Manifest manifest;
    nlohmann::json config;
    ImageProcess process;
};

// Reads the manifest `descriptor` points at and its config. Error(invalid_input) for an
// index (platform_image picks one of its manifests first) or a config that is not JSON.
StoredImage read_image(const oci::ImageLayout& layout, const oci::Descriptor& descriptor);

// The value of `key` in an environment list, if set.
std::optional<std::string> env_value(const std::vector<std::string>& env, std::string_view key);

} // namespace dlenv::verify
