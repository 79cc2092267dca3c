#pragma once

#include "workflow/image_diff.h"

#include <string>

namespace dlenv::cli {

// The diff as markdown for a pull-request comment: the summary line in bold, the count of
// changes per section, a line per image side (its digest, layers, size, verifications),
// then a table per changed section in the order a reviewer reads them: what the image is,
// what it holds, who can run it, what only the images know.
std::string diff_markdown(
    const workflow::SideDiff& diff, const workflow::DiffSide& before, const workflow::DiffSide& after);

} // namespace dlenv::cli
