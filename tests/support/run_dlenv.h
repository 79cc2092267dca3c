#pragma once

#include "core/subprocess.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

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

// The error a command printed with --json: "message | hint".
inline std::string error_of(const ProcessResult& r)
{
    INFO(r.out);
    auto error = nlohmann::json::parse(r.out).at("error");
    return error.at("message").get<std::string>() + " | " + error.value("hint", std::string());
}

} // namespace dlenv::testing
