#include "oci/image_path.h"

#include <catch2/catch.hpp>

using namespace dlenv::oci;

TEST_CASE("image paths split without empty and dot components and normalize without leaving the root", "[oci]")
{
    CHECK(split_path("./usr//bin/./tool/") == std::vector<std::string> { "usr", "bin", "tool" });
    CHECK(split_path("a/../b") == std::vector<std::string> { "a", "..", "b" });
    CHECK(split_path("./").empty());
    CHECK(join_path({ "usr", "bin" }) == "usr/bin");
    CHECK(join_path({}).empty());
    CHECK(normalize_path("a/b/../c") == "a/c");
    CHECK(normalize_path("a/..") == "");
    CHECK(normalize_path("a/../..") == std::nullopt);
    CHECK(normalize_path("../x") == std::nullopt);
}
