#include "core/base64.h"
#include "core/error.h"
#include "core/file.h"
#include "registry/challenge.h"
#include "registry/credentials.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

using namespace dlenv::registry;

TEST_CASE("a bearer challenge gives the realm, service and scope", "[registry]")
{
    auto challenge = parse_challenge(
        R"(Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/ubuntu:pull")");
    REQUIRE(challenge);
    CHECK(challenge->scheme == "bearer");
    CHECK(challenge->parameter("realm") == "https://auth.docker.io/token");
    CHECK(challenge->parameter("service") == "registry.docker.io");
    CHECK(challenge->parameter("scope") == "repository:library/ubuntu:pull");
    CHECK(challenge->parameter("error").empty());
}

TEST_CASE("challenge values may be tokens, quoted with escapes, and spaced", "[registry]")
{
    auto challenge = parse_challenge(R"(Basic realm="a \"quoted\" realm", charset=UTF-8)");
    REQUIRE(challenge);
    CHECK(challenge->scheme == "basic");
    CHECK(challenge->parameter("realm") == "a \"quoted\" realm");
    CHECK(challenge->parameter("charset") == "UTF-8");
    CHECK_FALSE(parse_challenge("   "));
}

TEST_CASE("base64 round-trips and refuses what is not base64", "[core]")
{
    CHECK(dlenv::base64_encode("user:pa:ss") == "dXNlcjpwYTpzcw==");
    CHECK(dlenv::base64_encode("ab") == "YWI=");
    CHECK(dlenv::base64_encode("abc") == "YWJj");
    CHECK(dlenv::base64_decode("dXNlcjpwYTpzcw==") == "user:pa:ss");
    CHECK(dlenv::base64_decode("YWI=") == "ab");
    CHECK_FALSE(dlenv::base64_decode("YW=I"));
    CHECK_FALSE(dlenv::base64_decode("YWJ"));
    CHECK_FALSE(dlenv::base64_decode("Y!Jj"));
}

TEST_CASE("DLENV_REGISTRY_AUTH comes before docker's config, and a password may hold colons", "[registry]")
{
    Scratch scratch;
    auto credentials = find_credentials("localhost:5000", "ci:s3:cret", scratch / "none.json");
    REQUIRE(credentials);
    CHECK(credentials->username == "ci");
    CHECK(credentials->password == "s3:cret");
    CHECK(credentials->source == "DLENV_REGISTRY_AUTH");
    CHECK_THROWS_WITH(find_credentials("localhost:5000", "no-colon", scratch / "none.json"),
        "DLENV_REGISTRY_AUTH is not USER:PASSWORD");
    CHECK_FALSE(find_credentials("localhost:5000", nullptr, scratch / "none.json"));
}

TEST_CASE("docker's config.json gives credentials by host, with Docker Hub's legacy key", "[registry]")
{
    Scratch scratch;
    dlenv::write_file_atomic(scratch / "config.json",
        R"({"auths": {
        "https://index.docker.io/v1/": {"auth": ")"
            + dlenv::base64_encode("hub:token") + R"("},
        "registry.example.com:5000": {"username": "team", "password": "pw"},
        "broken.example.com": {"auth": "not base64!"}}})");
    auto hub = find_credentials("docker.io", nullptr, scratch / "config.json");
    REQUIRE(hub);
    CHECK(hub->username == "hub");
    CHECK(hub->password == "token");
    CHECK(hub->source == (scratch / "config.json").string());
    auto team = find_credentials("registry.example.com:5000", nullptr, scratch / "config.json");
    REQUIRE(team);
    CHECK(team->username == "team");
    CHECK_FALSE(find_credentials("ghcr.io", nullptr, scratch / "config.json"));
    CHECK_THROWS_WITH(find_credentials("broken.example.com", nullptr, scratch / "config.json"),
        Catch::Contains(R"(auths."broken.example.com".auth: is not base64 of USER:PASSWORD)"));
}

TEST_CASE("an entry of docker's config.json of the wrong type is named without showing its value", "[registry]")
{
    Scratch scratch;
    dlenv::write_file_atomic(scratch / "config.json", R"({"auths": {"registry.example.com": {"auth": 5318008}}})");
    CHECK_THROWS_WITH(find_credentials("registry.example.com", nullptr, scratch / "config.json"),
        (scratch / "config.json").string() + ": auths.\"registry.example.com\".auth: expected a string, got a number");
}
