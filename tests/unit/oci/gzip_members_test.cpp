#include "core/error.h"
#include "core/file.h"
#include "oci/gzip_members.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

using namespace dlenv;
using dlenv::oci::GzipMembers;

namespace {

// Everything the members inflate to, read in pieces of `step` bytes.
std::string inflate_all(GzipMembers& members, std::size_t step)
{
    std::string out;
    std::string piece(step, '\0');
    for (;;) {
        std::size_t got = members.read(piece.data(), step);
        out.append(piece, 0, got);
        if (got < step)
            return out;
    }
}

std::string message_of(const std::string& input)
{
    try {
        GzipMembers members(input);
        inflate_all(members, 4096);
    } catch (const Error& e) {
        return std::string(to_string(e.code())) + ": " + e.what();
    }
    return "inflated";
}

} // namespace

TEST_CASE("gzip members made by gzip inflate one after another, and bytes after them are left", "[oci]")
{
    Scratch scratch;
    scratch.sh("seq 1 200000 > data && head -c 5000 data | gzip -n > blob && tail -c +5001 data | gzip -9 >> blob"
               " && cp blob members && printf 'not gzip' >> blob");
    std::string blob = read_file(scratch / "blob");
    auto step = GENERATE(as<std::size_t> {}, 1, 777, 1 << 20);
    CAPTURE(step);
    GzipMembers members(blob);
    CHECK(inflate_all(members, step) == read_file(scratch / "data"));
    CHECK(members.consumed() == read_file(scratch / "members").size());
}

TEST_CASE("gzip data that is cut short, damaged or not gzip is refused, naming what is wrong", "[oci]")
{
    Scratch scratch;
    scratch.sh("seq 1 100000 | gzip -n > blob");
    std::string blob = read_file(scratch / "blob");
    std::string wrong_crc = blob;
    wrong_crc[wrong_crc.size() - 8] ^= 1; // the trailer's CRC-32 (RFC 1952 section 2.3)
    CHECK(message_of(blob.substr(0, blob.size() / 2)) == "invalid_input: read blob: gzip data ends inside a member");
    CHECK(message_of(wrong_crc) == "invalid_input: read blob: gzip data does not match its CRC-32");
    CHECK(message_of(blob.substr(0, 10) + std::string(64, '\xff'))
        == "invalid_input: read blob: gzip data has an invalid deflate block");
    GzipMembers none("plain bytes");
    char out[16];
    CHECK(none.read(out, sizeof out) == 0);
    CHECK(none.consumed() == 0);
}
