#include "core/error.h"
#include "pypi/name.h"
#include "pypi/specifier.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace dlenv;
using namespace dlenv::pypi;

namespace {

bool matches(const std::string& specifiers, const std::string& version, bool prereleases = false)
{
    return SpecifierSet::parse(specifiers).contains(Pep440Version::parse(version), prereleases);
}

} // namespace

TEST_CASE("specifiers follow PEP 440, local labels and pre-releases included", "[pypi]")
{
    struct Case {
        const char* spec;
        const char* version;
        bool expected;
    };
    const std::vector<Case> cases = {
        // A public == matches every local build of that release; a local == only itself.
        { "==2.1.2", "2.1.2+cu118", true },
        { "==2.1.2", "2.1.2", true },
        { "==2.1.2+cu118", "2.1.2+cu118", true },
        { "==2.1.2+cu118", "2.1.2+cu121", false },
        { "==2.1.2+cu118", "2.1.2", false },
        { "==2.1", "2.1.0", true },
        { "!=2.1.2", "2.1.2+cu118", false },
        { "!=2.1.2+cu118", "2.1.2+cu121", true },
        // Wildcards compare release numbers, not text.
        { "==2.1.*", "2.1.0", true },
        { "==2.1.*", "2.1.5.post1", true },
        { "==2.1.*", "2.10.0", false },
        { "==2.1.*", "2.1.2+cu118", true },
        { "!=2.1.*", "2.2.0", true },
        { "!=2.1.*", "2.1.9", false },
        // ~= is >= V and == V without its last number .*
        { "~=1.4.2", "1.4.5", true },
        { "~=1.4.2", "1.5.0", false },
        { "~=1.4.2", "1.4.1", false },
        { "~=2.2", "2.9", true },
        { "~=2.2", "3.0", false },
        // Ordered comparisons ignore the candidate's local label.
        { ">=2.1.2", "2.1.2+cu118", true },
        { "<=2.1.2", "2.1.2+cu118", true },
        { ">2.1.2", "2.1.2+cu118", false },
        { ">2.1.2", "2.1.2.post1", false },
        { ">2.1.2.post1", "2.1.2.post2", true },
        { "<2.2", "2.2rc1", false },
        // An exclusive bound does not admit pre-releases, even when it names one.
        { "<2.2rc2", "2.2rc1", false },
        { ">=1.0,<2", "1.9.9", true },
        { ">=1.0,<2", "2.0", false },
        { "===2.1.2+cu118", "2.1.2+cu118", true },
        { "===2.1.2", "2.1.2+cu118", false },
        { "", "0.0.1", true },
        // Pre-releases only when a clause names one.
        { ">=2.0", "2.2.0rc1", false },
        { "==2.2.0rc1", "2.2.0rc1", true },
        { ">=2.2.0a1", "2.2.0rc1", true },
        { "", "3.0.dev1", false },
    };
    for (const auto& c : cases) {
        INFO(c.spec << " against " << c.version);
        CHECK(matches(c.spec, c.version) == c.expected);
    }
    CHECK(matches(">=2.0", "2.2.0rc1", true));
    CHECK(matches("<2.2rc2", "2.2rc1", true));
    CHECK_FALSE(matches("<2.2", "2.2rc1", true));
    CHECK(SpecifierSet::parse(" >= 1.0 , < 2 ").str() == ">=1.0,<2");
    CHECK(SpecifierSet::parse("==2.1.*").str() == "==2.1.*");
}

TEST_CASE("a specifier set falls back to pre-releases only when no final release matches", "[pypi]")
{
    std::vector<Pep440Version> versions = { Pep440Version::parse("1.0"), Pep440Version::parse("2.0rc1") };
    auto pick = [&](const std::string& spec) {
        std::string out;
        for (const auto& v : SpecifierSet::parse(spec).filter(versions))
            out += (out.empty() ? "" : " ") + v.str();
        return out;
    };
    CHECK(pick("") == "1.0");
    CHECK(pick(">=1.5") == "2.0rc1");
    CHECK(pick(">=3") == "");
}

TEST_CASE("malformed specifiers are refused with the reason", "[pypi]")
{
    struct Case {
        const char* text;
        const char* message;
    };
    const std::vector<Case> cases = {
        { "2.1", "'2.1' is not a PEP 440 version specifier: it starts with no operator" },
        { ">=2.1.*", "'>=2.1.*' is not a PEP 440 version specifier: only == and != take a trailing .*" },
        { "~=2", "'~=2' is not a PEP 440 version specifier: ~= needs at least two release numbers" },
        { ">=2.1+cu118", "'>=2.1+cu118' is not a PEP 440 version specifier: only == and != take a local label" },
        { "==banana", "'==banana' is not a PEP 440 version specifier: 'banana' is not a PEP 440 version" },
        { "==", "'==' is not a PEP 440 version specifier: it names no version" },
    };
    for (const auto& c : cases) {
        INFO(c.text);
        try {
            SpecifierSet::parse(c.text);
            FAIL("accepted");
        } catch (const Error& e) {
            CHECK(e.code() == ErrorCode::invalid_input);
            CHECK(e.message() == c.message);
        }
    }
}

TEST_CASE("project names are normalised as PEP 503 says", "[pypi]")
{
    CHECK(normalize_name("Nvidia_CUDNN.cu11") == "nvidia-cudnn-cu11");
    CHECK(normalize_name("typing__extensions") == "typing-extensions");
    CHECK(normalize_name("zope.interface") == "zope-interface");
    CHECK(normalize_name("A-_.b") == "a-b");
    CHECK(is_valid_name("torch"));
    CHECK(is_valid_name("nvidia-cudnn-cu11"));
    CHECK_FALSE(is_valid_name("-torch"));
    CHECK_FALSE(is_valid_name("torch!"));
    CHECK_FALSE(is_valid_name(""));
}
