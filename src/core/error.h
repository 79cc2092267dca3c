#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv {

// What went wrong, as callers branch on it. cli/ maps codes to exit codes.
enum class ErrorCode {
    invalid_input, // the user gave something malformed or unknown
    conflict, // the request is well-formed but cannot be satisfied
    not_found, // a named thing does not exist
    io, // reading or writing a file failed
    network, // a remote did not answer as expected
    auth, // credentials missing or refused
    verification_failed, // a check ran and failed
    environment, // something the host must provide is missing (runtime, GPU)
};

std::string_view to_string(ErrorCode code);

// The one error type of the library. `what()` reads "context: context: message";
// `hint()` tells the user what to do about it, when there is something to do.
class Error : public std::runtime_error {
public:
    Error(ErrorCode code, std::string message, std::string hint = {});

    ErrorCode code() const { return m_code; }
    const std::string& message() const { return m_message; }
    const std::string& hint() const { return m_hint; }
    const std::vector<std::string>& context() const { return m_context; }

    // Returns a copy with `context` prepended: "lock profile x: read file: ...".
    Error with_context(std::string context) const;

private:
    static std::string render(const std::vector<std::string>& context, const std::string& message);

    ErrorCode m_code;
    std::string m_message;
    std::string m_hint;
    std::vector<std::string> m_context;
};

} // namespace dlenv
