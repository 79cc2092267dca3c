// A shared object or executable read from an image's root filesystem.
#include "fuzz_input.h"
#include "verify/elf.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    dlenv::fuzz::expect_only_error(
        [&] { dlenv::verify::parse_elf_dynamic(dlenv::fuzz::text_of(data, size), "fuzz/libdemo.so"); });
    return 0;
}
