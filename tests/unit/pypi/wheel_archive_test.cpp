#include "core/error.h"
#include "pypi/wheel_archive.h"

#include <catch2/catch.hpp>

#include <string>

using namespace dlenv;
using namespace dlenv::pypi;

namespace {

const std::string k_text = "Metadata-Version: 2.1\nName: demo\nVersion: 1.0\n";
const std::uint32_t k_crc = 0x8d366ed4; // zlib.crc32(k_text)
// k_text as a raw deflate stream: zlib.compressobj(9, zlib.DEFLATED, -15).
const std::string k_deflated("\xf3\x4d\x2d\x49\x4c\x49\x2c\x49\xd4\x0d\x4b\x2d\x2a\xce\xcc\xcf\xb3\x52\x30\xd2\x33"
                             "\xe4\xf2\x4b\xcc\x4d\xb5\x52\x48\x49\xcd\xcd\xe7\x82\x8b\x1b\xea\x19\x70\x01\x00",
    41);

std::string refusal(int method, const std::string& data, std::uint32_t crc, std::uint64_t size)
{
    try {
        decode_zip_data(method, data, crc, size);
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        return e.what();
    }
    return "accepted";
}

} // namespace

TEST_CASE("a deflated zip member inflates through libarchive's gzip filter, a stored one is as is", "[pypi]")
{
    CHECK(decode_zip_data(8, k_deflated, k_crc, k_text.size()) == k_text);
    CHECK(decode_zip_data(0, k_text, k_crc, k_text.size()) == k_text);
    CHECK(decode_zip_data(0, "", 0, 0).empty());
}

TEST_CASE("a zip member whose CRC-32, size, stream or method is wrong is refused", "[pypi]")
{
    CHECK(refusal(8, k_deflated, 0x12345678, k_text.size())
        == "the data has CRC-32 8d366ed4, the central directory says 12345678");
    CHECK(refusal(0, k_text, 0, k_text.size()) == "the data has CRC-32 8d366ed4, the central directory says 00000000");
    CHECK(refusal(8, k_deflated, k_crc, 10) == "the data holds more than the 10 bytes the central directory says");
    CHECK(refusal(8, k_deflated, k_crc, 100) == "the data holds 46 of the 100 bytes the central directory says");
    CHECK(refusal(0, k_text, k_crc, 10) == "the data holds more than the 10 bytes the central directory says");
    CHECK(refusal(0, k_text, k_crc, 100) == "the data holds 46 of the 100 bytes the central directory says");
    CHECK(
        refusal(8, k_deflated.substr(0, 20), k_crc, k_text.size()) == "inflate: truncated or malformed deflate stream");
    CHECK(refusal(8, "\xff\xff\xff", k_crc, k_text.size()) == "inflate: gzip decompression failed");
    CHECK(refusal(12, k_text, k_crc, k_text.size()) == "compression method 12 is neither stored (0) nor deflate (8)");
}
