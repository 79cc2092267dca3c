#include "core/error.h"
#include "core/file.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

#include <string>

using namespace dlenv;

TEST_CASE("read_file reads a file whole, bytes unchanged", "[core]")
{
    Scratch scratch;
    std::string bytes("lock\0with\xffnul\n", 14);
    write_file_atomic(scratch / "a.lock.json", bytes);
    CHECK(read_file(scratch / "a.lock.json") == bytes);
}

TEST_CASE("read_file stops at its bound on a stream that never ends, naming it", "[core]")
{
    try {
        read_file("/dev/zero");
        FAIL("read /dev/zero whole");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(std::string(e.what()) == "/dev/zero: more than 256 MiB; dlenv reads no file of that size whole");
    }
}

TEST_CASE("read_file of a missing file is not_found with its path", "[core]")
{
    Scratch scratch;
    try {
        read_file(scratch / "missing.json");
        FAIL("read a missing file");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::not_found);
        CHECK(std::string(e.what()) == "no such file: " + (scratch / "missing.json").string());
    }
}
