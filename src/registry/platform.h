#pragma once

#include "oci/descriptor.h"

#include <string_view>

namespace dlenv::registry {

// "os/architecture[/variant]" as --platform takes it: linux/amd64, linux/arm64/v8.
// Error(invalid_input) otherwise.
oci::Platform parse_platform(std::string_view text);
std::string platform_text(const oci::Platform& platform);

// The manifest of `index` built for `wanted`; an empty wanted variant matches any.
// Error(not_found) listing the platforms the index has when none matches.
const oci::Descriptor& select_platform(const oci::Index& index, const oci::Platform& wanted, const std::string& what);

} // namespace dlenv::registry
