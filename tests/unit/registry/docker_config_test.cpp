#include "core/base64.h"
#include "core/error.h"
#include "core/file.h"
#include "core/subprocess.h"
#include "registry/credentials.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace dlenv;

namespace {

// A malformed config.json, the secret it holds, and the error that must name the place
// of the fault (after the file's name) without showing the secret.
struct Malformed {
    std::string what;
    std::string config;
    std::string secret;
    std::string error;
};

std::string entry(const std::string& fields)
{
    return R"({"auths": {"registry.example": {)" + fields + "}}}";
}

const std::string k_auth_field = R"(: auths."registry.example".auth: )";
const std::string k_not_base64 = k_auth_field + "is not base64 of USER:PASSWORD";

std::vector<Malformed> malformed_configs()
{
    std::string b64 = base64_encode("alice:S3CRET-b64");
    return {
        { "auth is not base64", entry(R"("auth": "S3CRET*not*base64")"), "S3CRET", k_not_base64 },
        { "auth has no colon", entry(R"("auth": ")" + base64_encode("aliceS3CRET") + R"(")"),
            base64_encode("aliceS3CRET"), k_not_base64 },
        { "auth has no user", entry(R"("auth": ")" + base64_encode(":S3CRET") + R"(")"), base64_encode(":S3CRET"),
            k_not_base64 },
        { "auth is a number", entry(R"("auth": 31415926)"), "31415926",
            k_auth_field + "expected a string, got a number" },
        { "auth is an array", entry(R"("auth": ["S3CRET"])"), "S3CRET",
            k_auth_field + "expected a string, got an array" },
        { "auth is an object", entry(R"("auth": {"password": "S3CRET"})"), "S3CRET",
            k_auth_field + "expected a string, got an object" },
        { "password is a number", entry(R"("username": "alice", "password": 27182818)"), "27182818",
            R"(: auths."registry.example".password: expected a string, got a number)" },
        { "password is an array", entry(R"("username": "alice", "password": ["S3CRET"])"), "S3CRET",
            R"(: auths."registry.example".password: expected a string, got an array)" },
        { "username is a number", entry(R"("username": 1234, "password": "S3CRET")"), "S3CRET",
            R"(: auths."registry.example".username: expected a string, got a number)" },
        { "the entry is a string", R"({"auths": {"registry.example": "alice:S3CRET"}})", "S3CRET",
            R"(: auths."registry.example": expected an object, got a string)" },
        { "auths is an array", R"({"auths": [{"auth": ")" + b64 + R"("}]})", b64,
            ": auths: expected an object, got an array" },
        { "the document is an array", R"([{"auths": {"registry.example": {"password": "S3CRET"}}}])", "S3CRET",
            ": (document): expected an object, got an array" },
        { "the file ends after the secret", R"({"auths": {"registry.example": {"auth": ")" + b64, b64,
            ":1:66: not valid JSON" },
        { "a control character in the password", entry("\"username\": \"alice\", \"password\": \"S3CRET\x01\""),
            "S3CRET", ":1:73: not valid JSON" },
        { "an unknown escape in the password", entry(R"("username": "alice", "password": "S3CRET\q")"), "S3CRET",
            ":1:74: not valid JSON" },
        { "a password that is not UTF-8", entry("\"username\": \"alice\", \"password\": \"S3CRET\xff\""), "S3CRET",
            ":1:73: not valid JSON" },
        { "an unquoted password", entry(R"("username": "alice", "password": S3CRET)"), "S3CRET",
            ":1:66: not valid JSON" },
        { "a comma missing after the password", entry(R"("password": "S3CRET" "username": "alice")"), "S3CRET",
            ":1:63: not valid JSON" },
    };
}

const std::string k_syntax_hint = "fix the syntax at that position; the text there is not shown, as the file holds "
                                  "credentials";

// What `dlenv pull` prints, both streams, when it finds the config in `dir`.
ProcessResult pull_with_config(const std::filesystem::path& dir, bool json)
{
    std::string command = "env -u DLENV_REGISTRY_AUTH DOCKER_CONFIG='" + dir.string()
        + "' '" DLENV_BINARY "' pull registry.example/team/app:v1 --store '" + (dir / "store").string() + "'"
        + (json ? " --json" : "") + " 2>&1";
    std::optional<ProcessResult> result = run_process({ "sh", "-c", command });
    REQUIRE(result);
    return *result;
}

} // namespace

TEST_CASE("errors about a malformed docker config name the file and field, never the secret", "[registry]")
{
    for (const Malformed& bad : malformed_configs()) {
        INFO(bad.what);
        Scratch scratch;
        std::filesystem::path file = scratch / "config.json";
        write_file_atomic(file, bad.config);
        std::string message = file.string() + bad.error;
        try {
            registry::find_credentials("registry.example", nullptr, file);
            FAIL("no error");
        } catch (const Error& e) {
            CHECK(e.code() == ErrorCode::invalid_input);
            CHECK(e.what() == message);
            if (bad.error.find("not valid JSON") != std::string::npos)
                CHECK(e.hint() == k_syntax_hint);
            CHECK(e.hint().find(bad.secret) == std::string::npos);
        }

        ProcessResult text = pull_with_config(scratch.dir(), false);
        CHECK(text.exit_code == 2);
        CHECK(text.out.find("dlenv: " + message + "\n") == 0);
        CHECK(text.out.find(bad.secret) == std::string::npos);
        CHECK(text.out.find("S3CRET") == std::string::npos);

        ProcessResult json = pull_with_config(scratch.dir(), true);
        CHECK(json.exit_code == 2);
        CHECK(nlohmann::json::parse(json.out)["error"]["message"] == message);
        CHECK(json.out.find(bad.secret) == std::string::npos);
        CHECK(json.out.find("S3CRET") == std::string::npos);
    }
}
