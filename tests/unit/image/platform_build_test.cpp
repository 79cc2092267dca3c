#include "core/error.h"
#include "image/platform_build.h"

#include <catch2/catch.hpp>

using namespace dlenv;

TEST_CASE("a base whose config names another architecture than the platform is refused naming both", "[image]")
{
    oci::Platform arm64 { "arm64", "linux", "" };
    image::check_base_architecture({ { "architecture", "arm64" }, { "os", "linux" } }, arm64, "oci:base");
    image::check_base_architecture(nlohmann::json::object(), arm64, "oci:base");
    try {
        image::check_base_architecture({ { "architecture", "amd64" }, { "os", "linux" } }, arm64, "oci:base");
        FAIL("took an amd64 base for arm64");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(std::string(e.what()) == "base image oci:base: its config's architecture is amd64, not arm64");
        CHECK(e.hint() == "name a base built for linux/arm64");
    }
}
