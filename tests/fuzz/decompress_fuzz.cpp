// A gzip (any number of members) or zstd stream, as a compressed layer holds it.
#include "fuzz_input.h"
#include "oci/tar_reader.h"

#include <utility>

namespace {

// A few bytes of zstd can stand for gigabytes of output; past this the stream is
// refused the way a sink refuses a stream it cannot take.
constexpr std::size_t k_enough = std::size_t(64) << 20;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace dlenv;
    std::string_view input = fuzz::text_of(data, size);
    bool given = false;
    auto source = [&] { return std::exchange(given, true) ? std::string_view() : input; };
    std::size_t out = 0;
    auto sink = [&](std::string_view piece) {
        out += piece.size();
        if (out > k_enough)
            throw Error(ErrorCode::invalid_input, "fuzz: the stream decompresses to more than 64 MiB");
    };
    fuzz::expect_only_error([&] { oci::decompress(source, "fuzz.tar.gz", sink); });
    return 0;
}
