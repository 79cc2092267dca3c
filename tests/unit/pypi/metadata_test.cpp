#include "core/error.h"
#include "pypi/metadata.h"

#include <catch2/catch.hpp>

using namespace dlenv;
using namespace dlenv::pypi;

TEST_CASE("core metadata reads Name, Version, Requires-Dist and Requires-Python from its header", "[pypi]")
{
    Metadata m
        = Metadata::parse("Metadata-Version: 2.1\nName: demo-pkg\nVersion: 1.0\nRequires-Python: >=3.8\n"
                          "Requires-Dist: numpy>=1.24\nProvides-Extra: CLI\n\nThe description.\nName: not-a-field\n",
            "demo/METADATA");
    CHECK(m.name == "demo-pkg");
    CHECK(m.version.str() == "1.0");
    REQUIRE(m.requires_dist.size() == 1);
    CHECK(m.requires_dist[0].str() == "numpy>=1.24");
    CHECK(m.requires_python->str() == ">=3.8");
    CHECK(m.provides_extra == std::vector<std::string> { "cli" });
}

TEST_CASE("a continuation line of blanks only continues its field instead of breaking the parse", "[pypi]")
{
    auto blanks = GENERATE(as<std::string> {}, " ", "\t", " \t ", " \r");
    CAPTURE(blanks);
    Metadata m = Metadata::parse("Name: demo\nVersion: 1.0\nSummary: one\n" + blanks + "\n two\n", "demo/METADATA");
    CHECK(m.name == "demo");
    CHECK(m.version.str() == "1.0");
}
