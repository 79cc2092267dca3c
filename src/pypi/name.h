#pragma once

#include <string>
#include <string_view>

namespace dlenv::pypi {

// PEP 503 normalisation: lower case, every run of '-', '_' and '.' becomes one '-'.
// "Nvidia_CUDNN.cu11" -> "nvidia-cudnn-cu11". Two names are the same project exactly
// when their normalised forms are equal.
std::string normalize_name(std::string_view name);

// True for a name PEP 508 accepts: ASCII letters and digits, with '-', '_' and '.'
// allowed only between them.
bool is_valid_name(std::string_view name);

} // namespace dlenv::pypi
