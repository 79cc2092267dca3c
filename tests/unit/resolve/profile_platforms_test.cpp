#include "core/error.h"
#include "resolve/profile.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

std::string profile_with(const std::string& fields)
{
    return R"({"format": "dlenv.profile/v1", "name": "team", "python": "3.12", "base_image": "scratch",
               "framework": {"name": "torch", "version": "2.6", "cuda": "12.6"})"
        + fields + "}";
}

} // namespace

TEST_CASE("a profile names linux/amd64 alone unless it names its platforms", "[resolve][profile]")
{
    auto plain = resolve::Profile::parse("team.json", profile_with(""));
    CHECK(plain.platforms == std::vector<std::string> { "linux/amd64" });
    CHECK(plain.packages.machine == "x86_64");

    auto both = resolve::Profile::parse("team.json", profile_with(R"(, "platforms": ["linux/amd64", "linux/arm64"])"));
    CHECK(both.platforms == std::vector<std::string> { "linux/amd64", "linux/arm64" });
    CHECK(both.packages.machine == "x86_64");

    auto arm = resolve::Profile::parse("team.json", profile_with(R"(, "platforms": ["linux/arm64"])"));
    CHECK(arm.packages.machine == "aarch64");
    CHECK(resolve::platform_machine("linux/arm64") == "aarch64");
    CHECK(resolve::platform_machine("linux/amd64") == "x86_64");
    CHECK_FALSE(resolve::platform_machine("linux/ppc64le"));
}

TEST_CASE("a profile's platforms are refused naming the entry when unknown, repeated or at odds with its machine",
    "[resolve][profile]")
{
    struct Case {
        std::string fields, message, hint;
    };
    auto c = GENERATE(Case { R"(, "platforms": [])", "team.json: platforms: expected at least one platform",
                          "name linux/amd64, linux/arm64 or both" },
        Case { R"(, "platforms": ["linux/amd64", "linux/ppc64le"])",
            "team.json: platforms[1]: unknown platform 'linux/ppc64le'", "platforms are linux/amd64 and linux/arm64" },
        Case { R"(, "platforms": ["linux/arm64", "linux/arm64"])",
            "team.json: platforms[1]: 'linux/arm64' is named twice", "" },
        Case { R"(, "packages": {"machine": "x86_64"}, "platforms": ["linux/arm64", "linux/amd64"])",
            "team.json: packages.machine: machine 'x86_64' is not that of the first platform, linux/arm64",
            "leave packages.machine out: each platform's machine follows from its name" });
    INFO(c.message);
    try {
        resolve::Profile::parse("team.json", profile_with(c.fields));
        FAIL("accepted the platforms");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(std::string(e.what()) == c.message);
        CHECK(e.hint() == c.hint);
    }
}
