// profiles/NAME.json as a team writes it (dlenv lock PROFILE).
#include "fuzz_input.h"
#include "resolve/profile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::string text(dlenv::fuzz::text_of(data, size));
    dlenv::fuzz::expect_only_error([&] { dlenv::resolve::Profile::parse("fuzz/profile.json", text); });
    return 0;
}
