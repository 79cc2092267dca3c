#include "core/error.h"
#include "core/file.h"
#include "registry/credentials.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

using namespace dlenv;

namespace {

// Puts a test's helpers first in PATH for the test's length.
class HelpersInPath {
public:
    explicit HelpersInPath(const std::filesystem::path& dir)
        : m_saved(std::getenv("PATH") ? std::getenv("PATH") : "")
    {
        ::setenv("PATH", (dir.string() + ":" + m_saved).c_str(), 1);
    }
    ~HelpersInPath() { ::setenv("PATH", m_saved.c_str(), 1); }
    HelpersInPath(const HelpersInPath&) = delete;
    HelpersInPath& operator=(const HelpersInPath&) = delete;

private:
    std::string m_saved;
};

// docker-credential-NAME in `scratch`/bin: it keeps what it read on stdin in
// `scratch`/NAME.asked and runs `body`.
void helper(const Scratch& scratch, const std::string& name, const std::string& body)
{
    std::filesystem::path file = scratch / "bin" / ("docker-credential-" + name);
    write_file_atomic(file,
        "#!/bin/sh\n[ \"$1\" = get ] || exit 9\ncat > '" + (scratch / (name + ".asked")).string() + "'\n" + body
            + "\n");
    std::filesystem::permissions(file, std::filesystem::perms::owner_all);
}

std::string error_of(const std::string& registry, const std::filesystem::path& config, const std::string& secret)
{
    try {
        registry::find_credentials(registry, nullptr, config);
    } catch (const Error& e) {
        CHECK(std::string(e.what()).find(secret) == std::string::npos);
        return std::string(e.what());
    }
    FAIL("found credentials");
    return "";
}

} // namespace

TEST_CASE("credsStore asks its helper with the server address on stdin, as Docker does", "[registry]")
{
    Scratch scratch;
    helper(scratch, "teststore", R"(echo '{"ServerURL": "x", "Username": "alice", "Secret": "S3CRET"}')");
    HelpersInPath path(scratch / "bin");
    write_file_atomic(scratch / "config.json",
        R"({"credsStore": "teststore", "auths": {"127.0.0.1:5000": {"auth": "Ym9iOm5vdC11c2Vk"}}})");
    std::optional<registry::Credentials> found
        = registry::find_credentials("127.0.0.1:5000", nullptr, scratch / "config.json");
    REQUIRE(found);
    CHECK(found->username == "alice");
    CHECK(found->password == "S3CRET");
    CHECK(found->source == "docker-credential-teststore (" + (scratch / "config.json").string() + ": credsStore)");
    CHECK(read_file(scratch / "teststore.asked") == "127.0.0.1:5000");

    registry::find_credentials("docker.io", nullptr, scratch / "config.json");
    CHECK(read_file(scratch / "teststore.asked") == "https://index.docker.io/v1/");
}

TEST_CASE("a registry's credHelpers entry comes before credsStore", "[registry]")
{
    Scratch scratch;
    helper(scratch, "ecr-test", R"(echo '{"ServerURL": "x", "Username": "AWS", "Secret": "T0KEN"}')");
    helper(scratch, "teststore", "exit 7");
    HelpersInPath path(scratch / "bin");
    write_file_atomic(scratch / "config.json",
        R"({"credsStore": "teststore", "credHelpers": {"123456789012.dkr.ecr.eu-west-1.amazonaws.com": "ecr-test"}})");
    std::optional<registry::Credentials> found
        = registry::find_credentials("123456789012.dkr.ecr.eu-west-1.amazonaws.com", nullptr, scratch / "config.json");
    REQUIRE(found);
    CHECK(found->username == "AWS");
    CHECK(found->source == "docker-credential-ecr-test (" + (scratch / "config.json").string() + ": credHelpers)");
}

TEST_CASE("a helper that holds nothing for the registry leaves it anonymous", "[registry]")
{
    Scratch scratch;
    helper(scratch, "teststore", "echo 'credentials not found in native keychain'; exit 1");
    HelpersInPath path(scratch / "bin");
    write_file_atomic(scratch / "config.json", R"({"credsStore": "teststore"})");
    CHECK_FALSE(registry::find_credentials("127.0.0.1:5000", nullptr, scratch / "config.json"));
    // What docker-credential-pass 0.6.4 answers for a server its store does not hold.
    helper(scratch, "teststore", R"(echo '{"ServerURL":"127.0.0.1:5000","Username":"","Secret":""}')");
    CHECK_FALSE(registry::find_credentials("127.0.0.1:5000", nullptr, scratch / "config.json"));
}

TEST_CASE("a helper that is missing, fails or answers wrong is refused without its secret", "[registry]")
{
    Scratch scratch;
    std::filesystem::create_directories(scratch / "bin");
    HelpersInPath path(scratch / "bin");
    std::string config = (scratch / "config.json").string();
    auto with_store = [&](const std::string& name) {
        write_file_atomic(scratch / "config.json", R"({"credsStore": ")" + name + R"("})");
    };

    with_store("absent");
    CHECK(error_of("r.example", config, "S3CRET")
        == "docker-credential-absent (" + config + ": credsStore) cannot be run");
    with_store("../../bin/sh");
    CHECK(error_of("r.example", config, "S3CRET") == config + ": credsStore: not the name of a credential helper");

    helper(scratch, "broken",
        "echo 'error getting credentials - err: exit status 2, out: gpg: decryption failed'; exit 1");
    with_store("broken");
    CHECK(error_of("r.example", config, "S3CRET")
        == "docker-credential-broken get for r.example failed (exit 1): error getting credentials - err: exit status "
           "2, "
           "out: gpg: decryption failed");

    helper(scratch, "numeric", R"(echo '{"ServerURL": "x", "Username": "alice", "Secret": 31415926}')");
    with_store("numeric");
    CHECK(error_of("r.example", config, "31415926")
        == "docker-credential-numeric (" + config + ": credsStore): Secret: expected a string, got a number");

    helper(scratch, "garbled", "echo 'Username=alice Secret=S3CRET'");
    with_store("garbled");
    CHECK(error_of("r.example", config, "S3CRET")
        == "docker-credential-garbled (" + config + ": credsStore):1:1: not valid JSON");

    helper(scratch, "identity", R"(echo '{"ServerURL": "x", "Username": "<token>", "Secret": "REFRESH"}')");
    with_store("identity");
    CHECK(error_of("r.example", config, "REFRESH")
        == "docker-credential-identity holds an identity token for r.example, which dlenv does not log in with");
}
