#include "core/text.h"

#include <catch2/catch.hpp>

#include <string>

using namespace dlenv;

TEST_CASE("white space is trimmed from both ends only", "[core]")
{
    CHECK(trim_whitespace(" \t torch 2.1 \r\n") == "torch 2.1");
    CHECK(trim_whitespace(" \n ").empty());
}

TEST_CASE("case folding touches A-Z only, so UTF-8 bytes pass through unchanged", "[core]")
{
    CHECK(ascii_lowercase("Content-Type: NVIDIA-CUDA-Runtime-CU12") == "content-type: nvidia-cuda-runtime-cu12");
    std::string utf8 = "GPU \xC3\x84\xFF";
    CHECK(ascii_lowercase(utf8) == "gpu \xC3\x84\xFF");
    CHECK(ascii_upper('z') == 'Z');
    CHECK(ascii_upper('_') == '_');
    CHECK(ascii_upper('\xE4') == '\xE4');
}

TEST_CASE("comparing without case needs equal lengths, and a prefix only its own", "[core]")
{
    CHECK(equal_ignoring_case("WWW-Authenticate", "www-authenticate"));
    CHECK_FALSE(equal_ignoring_case("WWW-Authenticate", "www-authenticat"));
    CHECK_FALSE(equal_ignoring_case("\xC3\x84", "\xC3\xA4")); // not ASCII: no folding
    CHECK(starts_with_ignoring_case("nvidia GeForce RTX 4090", "NVIDIA "));
    CHECK(starts_with_ignoring_case("NVIDIA", "nvidia"));
    CHECK_FALSE(starts_with_ignoring_case("NVID", "NVIDIA"));
}

TEST_CASE("a run of ASCII digits is non-empty and holds nothing else", "[core]")
{
    CHECK(all_ascii_digits("124"));
    CHECK(all_ascii_digits("0"));
    CHECK_FALSE(all_ascii_digits(""));
    CHECK_FALSE(all_ascii_digits("12a"));
    CHECK_FALSE(all_ascii_digits("1.2"));
    CHECK_FALSE(all_ascii_digits("\xD9\xA3")); // an Arabic-Indic digit is not ASCII
}
