#pragma once

#include <string>

namespace dlenv {

// Image names as registries accept them: lowercase components of [a-z0-9] joined by
// '.', '_', '__', '-' and separated by '/', after an optional "host:port/" of the registry
// they came from; at most 255 bytes. A profile's name is the image's name and its lock's
// file name, so profiles are held to the same rule. Throws Error(invalid_input) with a fix.
void check_image_name(const std::string& name);

} // namespace dlenv
