#pragma once

#include "core/digest.h"
#include "resolve/image_require_cuda.h"

#include <optional>
#include <string>
#include <string_view>

namespace dlenv::lock {

// The platform whose image of a multi-platform base the lock pins.
constexpr std::string_view k_platform = "linux/amd64";
static_assert(k_platform.substr(k_platform.find('/') + 1) == resolve::k_image_architecture,
    "check asks the gate of the images a lock pins");

// The base image, as the profile names it and, once pinned, as its registry served it.
struct BaseImageSection {
    std::string reference; // the profile's base_image: "nvidia/cuda:11.8.0-runtime-ubuntu22.04"
    std::optional<Digest> digest; // what the tag named when locked: an index or a manifest
    std::optional<Digest> manifest; // the image manifest for `platform`
    std::string platform; // "linux/amd64"
};

} // namespace dlenv::lock
