#pragma once

#include <string>
#include <string_view>

namespace dlenv {

// Why `target` cannot name a file in an image, or "" when it can: it must be absolute,
// not the root, and free of empty, "." and ".." components and of control characters
// (a newline would end a Dockerfile line).
std::string image_target_problem(std::string_view target);

} // namespace dlenv
