#include "core/error.h"
#include "host/read_speed.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

using namespace dlenv;

TEST_CASE("the read speed test reads back a whole file and leaves nothing behind", "[host]")
{
    Scratch scratch;
    auto read = host::measure_read_speed(scratch.dir(), 1); // rounded up to one 8 MiB request
    CHECK(read.bytes == (8u << 20));
    CHECK(read.seconds > 0);
    CHECK(std::filesystem::is_empty(scratch.dir()));
}

TEST_CASE("the read speed of a directory that does not exist is an error naming it", "[host]")
{
    Scratch scratch;
    CHECK_THROWS_WITH(host::measure_read_speed(scratch / "missing", 1),
        "data directory " + (scratch / "missing").string() + " does not exist");
}
