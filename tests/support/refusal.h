#pragma once

#include "core/error.h"

#include <functional>
#include <string>

// What `call` was refused with, "CODE: what", or "no error", so a test asserts the code
// and the whole message at once.
inline std::string refusal(const std::function<void()>& call)
{
    try {
        call();
    } catch (const dlenv::Error& e) {
        return std::string(to_string(e.code())) + ": " + e.what();
    }
    return "no error";
}

// The same with the hint: "CODE: what | hint".
inline std::string refusal_with_hint(const std::function<void()>& call)
{
    try {
        call();
    } catch (const dlenv::Error& e) {
        return std::string(to_string(e.code())) + ": " + e.what() + " | " + e.hint();
    }
    return "no error";
}
