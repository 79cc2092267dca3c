#pragma once

#include "oci/descriptor.h"
#include "oci/layout.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace dlenv::verify {

// The platform an image's config names, "os/architecture" ("linux/arm64"); "" when it
// names none.
std::string image_platform(const nlohmann::json& config);

// This machine's platform as images name it: "linux/amd64" on x86_64, "linux/arm64" on
// aarch64, "linux/" + the kernel's machine name elsewhere.
std::string host_platform();

// The image `descriptor` names for `platform` ("" for this machine's): itself when it is a
// manifest, its manifest for that platform when it is an image index.
// Error(not_found) naming the platforms the index has; platform_images' error for an index
// that lists none.
oci::Descriptor platform_image(const oci::ImageLayout& layout, const oci::Descriptor& descriptor, std::string platform);

// Every image `descriptor` stands for: itself when it is a manifest, the manifests of an
// image index in its order. Error(invalid_input) for an index that lists none.
std::vector<oci::Descriptor> platform_images(const oci::ImageLayout& layout, const oci::Descriptor& descriptor);

// "linux/arm64" for the image of an index that names its platform; "" otherwise.
std::string platform_text(const oci::Descriptor& image);

} // namespace dlenv::verify
