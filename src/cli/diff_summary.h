#pragma once

#include "workflow/image_diff.h"

#include <string>

namespace dlenv::cli {

// The one line a reviewer reads first: the framework, what else changed in the stack,
// how many packages changed, the base, the driver floor, the GPU verdicts and, between two
// images, their layers and verifications ("torch 2.5.0 → 2.5.1, 3 packages changed, base
// unchanged"). Sections that did not change are left out, but for the packages and the base.
std::string diff_summary(const workflow::SideDiff& diff, const workflow::DiffSide& after);

} // namespace dlenv::cli
