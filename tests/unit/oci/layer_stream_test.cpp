#include "oci/layer_stream.h"

#include "core/error.h"
#include "core/file.h"
#include "oci/gzip_stream.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

#include <functional>
#include <string>

using namespace dlenv;
using namespace dlenv::oci;
namespace fs = std::filesystem;

namespace {

Descriptor descriptor_of(const fs::path& blob)
{
    std::string bytes = read_file(blob);
    return { "application/octet-stream", Digest::of(bytes), static_cast<std::int64_t>(bytes.size()), {}, {} };
}

// Everything the stream hands out, then the digest check.
std::string drain(const fs::path& blob, const Descriptor& layer)
{
    LayerStream stream(blob, layer);
    std::string out;
    for (std::string_view piece = stream.next(); !piece.empty(); piece = stream.next())
        out += piece;
    stream.verify();
    return out;
}

std::string message_of(const std::function<void()>& action)
{
    try {
        action();
    } catch (const Error& e) {
        return std::string(to_string(e.code())) + ": " + e.what();
    }
    return "passed";
}

// `size` bytes that compress a little (nine symbols), so gzip makes them quickly.
std::string make_data(const Scratch& scratch, const std::string& name, int size)
{
    scratch.sh("python3 -c \"import random, sys; t = bytes(b'abcdefgh\\n'[i % 9] for i in range(256)); "
               "sys.stdout.buffer.write(random.Random(7).randbytes("
        + std::to_string(size) + ").translate(t))\" > " + name);
    return read_file(scratch / name);
}

} // namespace

TEST_CASE("a layer stream hands out the uncompressed bytes of every compression and member layout", "[oci]")
{
    // 9 MiB: several of dlenv's 1 MiB members, and more than one piece for a large member.
    Scratch scratch;
    std::string data = make_data(scratch, "data", 9 << 20);
    auto [name, make] = GENERATE(table<std::string, std::string>({
        { "plain", "cat data" },
        { "zstd", "zstd -q -c data" },
        { "one large gzip member", "gzip -n -c data" },
        // A large member between small ones: libdeflate, then libarchive for the rest.
        { "small, large and small members",
            "head -c 1000 data | gzip -n; head -c 8389608 data | tail -c +1001 | gzip -n; "
            "tail -c +8389609 data | gzip -n" },
        { "a member then bytes that start none", "gzip -n -c data; printf 'trailing garbage'" },
    }));
    INFO(name);
    scratch.sh("{ " + make + "; } > blob");

    CHECK(drain(scratch / "blob", descriptor_of(scratch / "blob")) == data);
}

TEST_CASE("a layer stream of dlenv's own gzip members equals its input", "[oci]")
{
    Scratch scratch;
    std::string data = make_data(scratch, "data", 3 * static_cast<int>(GzipStream::k_block_size) + 12345);
    std::string blob;
    GzipStream gzip([&](std::string_view bytes) { blob += bytes; }, 2);
    gzip.write(data);
    gzip.finish();
    write_file_atomic(scratch / "blob", blob);

    CHECK(drain(scratch / "blob", descriptor_of(scratch / "blob")) == data);
}

TEST_CASE("a layer stream refuses a blob that is not what its descriptor says", "[oci]")
{
    Scratch scratch;
    make_data(scratch, "data", 3 << 20);
    scratch.sh("gzip -n -c data > blob");
    Descriptor layer = descriptor_of(scratch / "blob");

    SECTION("another size")
    {
        layer.size += 1;
        CHECK(message_of([&] { LayerStream stream(scratch / "blob", layer); })
            == "verification_failed: blob has " + std::to_string(layer.size - 1) + " bytes, its descriptor says "
                + std::to_string(layer.size));
    }
    SECTION("another digest, checked also when the reader stops early")
    {
        layer.digest = Digest::of("other");
        LayerStream stream(scratch / "blob", layer);
        CHECK(!stream.next().empty());
        CHECK(message_of([&] { stream.verify(); }) == "verification_failed: blob does not match its digest");
        CHECK(message_of([&] { stream.verify(); }) == "passed");
    }
    SECTION("the right digest, with the reader stopping after one piece")
    {
        LayerStream stream(scratch / "blob", layer);
        CHECK(!stream.next().empty());
        CHECK(message_of([&] { stream.verify(); }) == "passed");
    }
    SECTION("a missing blob")
    {
        CHECK(message_of([&] { LayerStream stream(scratch / "missing", layer); })
            == "not_found: open " + (scratch / "missing").string() + ": No such file or directory");
    }
}

TEST_CASE("a damaged gzip member is handed out as far as it goes and refused by the digest", "[oci]")
{
    Scratch scratch;
    std::string data = make_data(scratch, "data", 2 << 20);
    // Two members of 1 MiB each; then a byte in the middle of the second one's deflate data
    // flipped. libdeflate refuses the member (its CRC), libarchive takes over and, as it
    // does not check CRCs, may hand out wrong bytes or fail: the digest decides.
    scratch.sh("head -c 1048576 data | gzip -n > first && tail -c +1048577 data | gzip -n > second\n"
               "cat first second > blob\n");
    Descriptor layer = descriptor_of(scratch / "blob");
    scratch.sh("at=$(( $(wc -c < first) + $(wc -c < second) / 2 ))\n"
               "printf '\\377' | dd of=blob bs=1 seek=$at conv=notrunc 2>/dev/null");
    REQUIRE(read_file(scratch / "blob") != read_file(scratch / "first") + read_file(scratch / "second"));
    LayerStream stream(scratch / "blob", layer);

    std::string out;
    message_of([&] {
        for (std::string_view piece = stream.next(); !piece.empty(); piece = stream.next())
            out += piece;
    });

    CHECK(out.substr(0, 1 << 20) == data.substr(0, 1 << 20));
    CHECK(message_of([&] { stream.verify(); }) == "verification_failed: blob does not match its digest");
}
