// A registry's WWW-Authenticate header.
#include "fuzz_input.h"
#include "registry/challenge.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    dlenv::fuzz::expect_only_error([&] {
        if (auto challenge = dlenv::registry::parse_challenge(dlenv::fuzz::text_of(data, size)))
            challenge->parameter("realm");
    });
    return 0;
}
