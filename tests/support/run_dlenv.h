#pragma once

#include "core/subprocess.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace dlenv::testing {

// Runs the dlenv binary the tests were built with, as a user would.
inline ProcessResult run_dlenv(std::vector<std::string> args)
{
    args.insert(args.begin(), DLENV_BINARY);
    auto result = run_process(args);
    REQUIRE(result);
    return *result;
}

} // namespace dlenv::testing
