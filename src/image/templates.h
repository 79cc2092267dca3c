#pragma once

#include <string>
#include <string_view>

namespace dlenv::image {

// The file `name` of templates/ ("Dockerfile.in"), compiled in. One that is not there is
// Error(environment): the binary was built without it.
std::string embedded_template(std::string_view name);

} // namespace dlenv::image
