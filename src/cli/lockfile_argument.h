#pragma once

#include <string>

namespace dlenv::cli {

// The lockfile a command works on: `given` when not empty, else the only *.lock.json in
// the current directory or lockfiles/. None or several is Error(invalid_input) saying to
// name one, with `command` ("build") in the hint.
std::string lockfile_argument(const std::string& given, const std::string& command);

} // namespace dlenv::cli
