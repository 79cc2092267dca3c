#pragma once

#include <optional>
#include <string>
#include <vector>

namespace dlenv {

struct ProcessResult {
    int exit_code = 0;
    std::string out; // standard output; standard error is passed through to ours
};

// Runs argv[0] (looked up in PATH) with no shell and waits for it. Returns nullopt
// when the program cannot be found or started.
std::optional<ProcessResult> run_process(const std::vector<std::string>& argv);

} // namespace dlenv
