#pragma once

#include "resolve/explain.h"

#include <iostream>
#include <vector>

namespace dlenv::cli {

// The matrix rows an answer rests on, each with its facts, sources and confidence.
void print_rows(const std::vector<resolve::RowUsed>& rows, std::ostream& out = std::cout);

} // namespace dlenv::cli
