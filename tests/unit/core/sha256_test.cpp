#include "core/sha256.h"

#include <catch2/catch.hpp>

using namespace dlenv;

TEST_CASE("SHA-256 and MD5 give the test vectors of FIPS 180-2 and RFC 1321", "[core]")
{
    CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(md5_hex("") == "d41d8cd98f00b204e9800998ecf8427e");
    CHECK(md5_hex("abc") == "900150983cd24fb0d6963f7d28e17f72");
    CHECK(md5_hex("message digest") == "f96b697d7cb7938d525a2f31aaf161d0");
}
