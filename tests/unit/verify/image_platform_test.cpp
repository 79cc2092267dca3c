#include "verify/image_platform.h"

#include <catch2/catch.hpp>

using namespace dlenv;

TEST_CASE("an image's platform is its config's os and architecture, and none when either is missing", "[verify]")
{
    CHECK(verify::image_platform({ { "architecture", "arm64" }, { "os", "linux" } }) == "linux/arm64");
    CHECK(verify::image_platform({ { "architecture", "arm64" } }).empty());
    CHECK(verify::image_platform({ { "architecture", 64 }, { "os", "linux" } }).empty());
}

TEST_CASE("this machine's platform is spelled as images spell it", "[verify]")
{
    std::string platform = verify::host_platform();
    CHECK(platform.starts_with("linux/"));
    CHECK(platform != "linux/x86_64");
    CHECK(platform != "linux/aarch64");
}
