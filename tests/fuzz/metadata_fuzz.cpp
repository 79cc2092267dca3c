// A wheel's METADATA, or the PEP 658 .metadata file an index serves beside it.
#include "fuzz_input.h"
#include "pypi/metadata.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    dlenv::fuzz::expect_only_error(
        [&] { dlenv::pypi::Metadata::parse(dlenv::fuzz::text_of(data, size), "fuzz/METADATA"); });
    return 0;
}
