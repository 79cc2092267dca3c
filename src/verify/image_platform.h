#pragma once

#include "oci/descriptor.h"
#include "oci/layout.h"

#include <nlohmann/json.hpp>

#include <string>

namespace dlenv::verify {

// The platform an image's config names, "os/architecture" ("linux/arm64"); "" when it
// names none.
std::string image_platform(const nlohmann::json& config);

// This machine's platform as images name it: "linux/amd64" on x86_64, "linux/arm64" on
// aarch64, "linux/" + the kernel's machine name elsewhere.
std::string host_platform();

// The image `descriptor` names for `platform` ("" for this machine's): itself when it is a
// manifest, its manifest for that platform when it is an image index.
// Error(not_found) naming the platforms the index has.
oci::Descriptor platform_image(const oci::ImageLayout& layout, const oci::Descriptor& descriptor, std::string platform);

} // namespace dlenv::verify
