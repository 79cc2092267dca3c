#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv {

struct ProcessResult {
    int exit_code = 0;
    std::string out; // standard output; standard error is passed through to ours
};

// Runs argv[0] (looked up in PATH) with no shell and waits for it. Returns nullopt
// when the program cannot be found or started.
std::optional<ProcessResult> run_process(const std::vector<std::string>& argv);

// The same with `input` on the program's standard input, then its end: at most
// k_max_process_input bytes, put in the pipe before the program starts, so a program that
// exits without reading it cannot stall or signal the caller.
constexpr std::size_t k_max_process_input = 4096;
std::optional<ProcessResult> run_process(const std::vector<std::string>& argv, std::string_view input);

} // namespace dlenv
