// A tar stream (a layer blob, a docker archive), plain, gzip or zstd, read entry by
// entry the way the layer reader and the archive import read it.
#include "fuzz_input.h"
#include "oci/tar_reader.h"

#include <algorithm>

namespace {

// Pieces of an odd size, so that headers and data straddle the source's boundaries.
constexpr std::size_t k_piece = 4093;
// A sparse entry may declare terabytes of holes; reading that far proves nothing more.
constexpr std::int64_t k_enough = std::int64_t(64) << 20;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace dlenv;
    std::string_view rest = fuzz::text_of(data, size);
    auto source = [&] {
        std::string_view piece = rest.substr(0, std::min(k_piece, rest.size()));
        rest.remove_prefix(piece.size());
        return piece;
    };
    fuzz::expect_only_error([&] {
        oci::TarReader tar(source, "fuzz.tar");
        std::int64_t read = 0;
        while (auto entry = tar.next())
            for (std::string_view piece = tar.read_data(); !piece.empty() && read < k_enough; piece = tar.read_data())
                read += static_cast<std::int64_t>(piece.size());
    });
    return 0;
}
