#include "verify/elf.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

using namespace dlenv;

// `check`, `lock --offline` and `--version` run as often as a shell prompt; each library in
// DT_NEEDED is mapped and relocated before main, and these three (with what they bring)
// were most of that time. They are opened with dlopen by the code that needs them.
TEST_CASE("dlenv starts without loading libcurl or libarchive or libcrypto", "[cli]")
{
    auto elf = verify::read_elf_dynamic(DLENV_BINARY);
    REQUIRE(elf);
    for (const char* lazy : { "libcurl.so.4", "libarchive.so.13", "libcrypto.so.3" }) {
        INFO(DLENV_BINARY << " needs " << lazy);
        CHECK(std::find(elf->needed.begin(), elf->needed.end(), lazy) == elf->needed.end());
    }
    CHECK(std::any_of(elf->needed.begin(), elf->needed.end(),
        [](const std::string& soname) { return soname.starts_with("libnettle.so."); }));
}
