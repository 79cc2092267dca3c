#include "core/error.h"
#include "core/file.h"
#include "pypi/metadata.h"
#include "pypi/remote_wheel.h"
#include "pypi/wheel_archive.h"
#include "support/lines.h"
#include "unit/pypi/index_server.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

using namespace dlenv;
using namespace dlenv::pypi;

namespace {

// 22 bytes of end record and a 64 KiB comment: the tail every range read asks first.
const std::string k_tail = "bytes=-65557";

DistributionFile file_named(const IndexServer& server, const std::string& project, const std::string& filename)
{
    for (const auto& file : server.index()->files(project))
        if (file.filename == filename)
            return file;
    FAIL("the index lists no " << filename);
    return {};
}

// The request path of `file` on `server`: "/files/NAME", quoted.
std::string path_of(const IndexServer& server, const DistributionFile& file)
{
    return file.url.substr(server.url.size() - 1);
}

std::vector<std::string> requirements(const Metadata& m)
{
    std::vector<std::string> out;
    for (const auto& requirement : m.requires_dist)
        out.push_back(requirement.str());
    return out;
}

void check_same(const Metadata& remote, const Metadata& local)
{
    CHECK(remote.name == local.name);
    CHECK(remote.version.str() == local.version.str());
    CHECK(requirements(remote) == requirements(local));
    CHECK(remote.requires_python.has_value() == local.requires_python.has_value());
    if (remote.requires_python && local.requires_python)
        CHECK(remote.requires_python->str() == local.requires_python->str());
    CHECK(remote.provides_extra == local.provides_extra);
}

std::uint64_t le32(const std::string& data, std::size_t at)
{
    std::uint64_t value = 0;
    for (int i = 3; i >= 0; --i)
        value = value << 8 | static_cast<unsigned char>(data[at + i]);
    return value;
}

} // namespace

TEST_CASE("a wheel smaller than the tail gives its METADATA in one range request, as the file itself does", "[pypi]")
{
    IndexServer server("ranges");
    std::string name = "torchvision-0.16.2+cu118-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl";
    DistributionFile file = file_named(server, "torchvision", name);
    Metadata remote = server.index()->metadata(file);
    check_same(remote, read_wheel_metadata(server.scratch / "wheels" / name));
    CHECK(requirements(remote) == std::vector<std::string> { "torch==2.1.2", "numpy" });
    CHECK(server.requests()
        == path_of(server, file) + " " + k_tail + " 206 "
            + std::to_string(std::filesystem::file_size(server.scratch / "wheels" / name)) + "\n");
}

TEST_CASE("a 4 MiB wheel gives its METADATA for the tail, the rest of its central directory and one range", "[pypi]")
{
    IndexServer server("ranges", "lazy");
    std::string name = "big-1.0-py3-none-any.whl";
    DistributionFile file = file_named(server, "big", name);
    check_same(server.index()->metadata(file), read_wheel_metadata(server.scratch / "wheels" / name));

    std::string wheel = read_file(server.scratch / "wheels" / name);
    std::uint64_t size = wheel.size();
    std::uint64_t directory = le32(wheel, size - 6); // the end record's central directory offset
    std::uint64_t directory_rest = size - 65557 - directory; // what the tail misses of it
    REQUIRE(size > 4u << 20);
    REQUIRE(directory < size - 65557);
    auto requests = lines(server.requests());
    REQUIRE(requests.size() == 3);
    std::string path = path_of(server, file);
    CHECK(requests[0] == path + " " + k_tail + " 206 65557");
    CHECK(requests[1]
        == path + " bytes=" + std::to_string(directory) + "-" + std::to_string(size - 65557 - 1) + " 206 "
            + std::to_string(directory_rest));
    CHECK(requests[2].starts_with(path + " bytes=0-")); // METADATA is the first member
    std::uint64_t served = 0;
    for (const auto& line : requests) {
        CHECK(line.find(" 206 ") != std::string::npos);
        served += std::stoull(line.substr(line.rfind(' ') + 1));
    }
    // The tail, the rest of the central directory, and METADATA's local header and
    // data with 1 KiB of slack: under 2 KiB, METADATA being 147 bytes deflated.
    CHECK(served < 65557 + directory_rest + 2048);
    CHECK(served * 20 < size);
}

TEST_CASE("a server that ignores Range is answered by a download of the whole wheel", "[pypi]")
{
    IndexServer server("json");
    std::string name = "filelock-3.13.1-py3-none-any.whl";
    DistributionFile file = file_named(server, "filelock", name);
    http::Client client;
    CHECK_FALSE(RemoteWheel::open(client, http::RetryPolicy { 1 }, file.url));
    check_same(server.index()->metadata(file), read_wheel_metadata(server.scratch / "wheels" / name));
    std::string size = std::to_string(std::filesystem::file_size(server.scratch / "wheels" / name));
    std::string path = path_of(server, file);
    // The whole-file answers to the range requests are cut off after their headers.
    CHECK(server.requests()
        == path + " " + k_tail + " 200 " + size + "\n" + path + " " + k_tail + " 200 " + size + "\n" + path + " - 200 "
            + size + "\n");
}

TEST_CASE("a ZIP64 wheel with stored members is read through its ZIP64 end records and extra fields", "[pypi]")
{
    IndexServer server("ranges", "lazy");
    std::string name = "zip64-1.0-py3-none-any.whl";
    std::filesystem::path local = server.scratch / "wheels" / name;
    DistributionFile file = file_named(server, "zip64", name);
    check_same(server.index()->metadata(file), read_wheel_metadata(local));

    http::Client client;
    auto wheel = RemoteWheel::open(client, http::RetryPolicy { 1 }, file.url);
    REQUIRE(wheel);
    CHECK(wheel->paths()
        == std::vector<std::string> { "zip64/__init__.py", "zip64-1.0.dist-info/METADATA", "zip64-1.0.dist-info/WHEEL",
            "zip64-1.0.dist-info/RECORD" });
    CHECK(wheel->read("zip64-1.0.dist-info/RECORD") == read_wheel_member(local, "zip64-1.0.dist-info/RECORD"));
    CHECK(wheel->read("zip64/__init__.py") == std::string());
    CHECK_FALSE(wheel->read("zip64/missing.py"));
    std::string tail
        = path_of(server, file) + " " + k_tail + " 206 " + std::to_string(std::filesystem::file_size(local));
    CHECK(server.requests() == tail + "\n" + tail + "\n");
}

TEST_CASE("a damaged central directory or member is refused naming the wheel's URL", "[pypi]")
{
    IndexServer server("ranges");
    std::string name = "filelock-3.13.1-py3-none-any.whl";
    DistributionFile file = file_named(server, "filelock", name);
    std::string prefix = "index " + server.url + "simple/: read wheel " + file.url + ": ";
    // Python finds the central directory from the end record and patches one entry.
    std::string patch = "python3 - root/files/" + name
        + " <<'EOF'\n"
          "import struct, sys\n"
          "d = bytearray(open(sys.argv[1], 'rb').read())\n"
          "at = struct.unpack_from('<I', d, len(d) - 6)[0]\n"
          "while not d[at + 46:at + 46 + struct.unpack_from('<H', d, at + 28)[0]].endswith(b'/METADATA'):\n"
          "    at += 46 + sum(struct.unpack_from('<HHH', d, at + 28))\n";
    auto refused = [&] {
        try {
            server.index()->metadata(file);
        } catch (const Error& e) {
            CHECK(e.code() == ErrorCode::invalid_input);
            return std::string(e.what());
        }
        return std::string("accepted");
    };

    SECTION("an entry's name runs past the directory")
    {
        server.scratch.sh(patch
            + "struct.pack_into('<H', d, at + 28, 0xFFFF)\n"
              "open(sys.argv[1], 'wb').write(d)\nEOF");
        CHECK(refused() == prefix + "central directory entry 2 runs past the end of the central directory");
    }
    SECTION("METADATA's CRC-32 differs from its data's")
    {
        server.scratch.sh(patch
            + "open('crc', 'w').write('%08x' % struct.unpack_from('<I', d, at + 16)[0])\n"
              "struct.pack_into('<I', d, at + 16, 0)\n"
              "open(sys.argv[1], 'wb').write(d)\nEOF");
        CHECK(refused()
            == prefix + "member filelock-3.13.1.dist-info/METADATA: the data has CRC-32 "
                + read_file(server.scratch / "crc") + ", the central directory says 00000000");
    }
    SECTION("no end record")
    {
        server.scratch.sh("printf 'not a zip' >root/files/" + name);
        CHECK(refused() == prefix + "no end of central directory record in its last 9 bytes");
    }
}
