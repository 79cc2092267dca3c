// One of NVIDIA's redistrib_X.Y.Z.json manifests, as `dlenv matrix refresh` reads it.
#include "fuzz_input.h"
#include "refresh/redist.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace dlenv;
    fuzz::expect_only_error([&] {
        refresh::parse_redistrib(
            std::string(fuzz::text_of(data, size)), "redistrib_12.4.1.json", CudaVersion::parse("12.4.1"));
    });
    return 0;
}
