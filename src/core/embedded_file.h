#pragma once

#include <string_view>
#include <vector>

namespace dlenv {

// A data file compiled into the binary (see cmake/embed.cmake).
struct EmbeddedFile {
    std::string_view name; // path relative to the embedded directory
    std::string_view contents;
};

} // namespace dlenv
