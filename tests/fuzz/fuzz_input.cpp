#include "fuzz_input.h"

#include <cstdio>
#include <cstdlib>

namespace dlenv::fuzz {

void finding(const std::string& what)
{
    std::fprintf(stderr, "fuzz finding: %s\n", what.c_str());
    std::abort();
}

} // namespace dlenv::fuzz
