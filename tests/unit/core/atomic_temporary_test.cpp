#include "core/atomic_temporary.h"
#include "core/file.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

using namespace dlenv;

TEST_CASE("the temporary file of an atomic write has a name that tells it for one", "[core]")
{
    Scratch dir;
    AtomicFile file(dir / "refs.json");
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir.dir()))
        names.push_back(entry.path().filename().string());
    REQUIRE(names.size() == 1);
    CHECK_THAT(names[0], Catch::StartsWith(".refs.json.tmp-"));
    CHECK(is_atomic_temporary(names[0]));
}

TEST_CASE("only names of the temporary-file pattern are taken for temporary files", "[core]")
{
    for (std::string name : { ".index.json.tmp-Ab12Cd", ".blob.tmp-000000", ".a.tmp-zzzzzz" })
        CHECK(is_atomic_temporary(name));
    for (std::string name : { "index.json", ".tmp-Ab12Cd", "index.json.tmp-Ab12Cd", ".index.json.tmp-Ab12C",
             ".index.json.tmp-Ab12Cd7", ".index.json.tmp-Ab/2Cd", ".index.json.tmp-Ab.2Cd", ".hidden", "" })
        CHECK_FALSE(is_atomic_temporary(name));
}
