#pragma once

#include "core/error.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace dlenv::fuzz {

// The bytes libFuzzer hands a target, as the text a parser reads.
inline std::string_view text_of(const std::uint8_t* data, std::size_t size)
{
    return { reinterpret_cast<const char*>(data), size };
}

// Runs `parse`. Error is how dlenv refuses bad input, so it is the expected outcome for
// most inputs; anything else that escapes (another exception, a crash, a sanitizer
// report) ends the run as a finding.
template <typename Parse> void expect_only_error(Parse&& parse)
{
    try {
        parse();
    } catch (const Error&) {
    }
}

// Reports `what` on stderr and aborts, so libFuzzer keeps the input as a crash.
[[noreturn]] void finding(const std::string& what);

} // namespace dlenv::fuzz
