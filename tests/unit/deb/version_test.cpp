#include "core/error.h"
#include "deb/version.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace dlenv;
using namespace dlenv::deb;

namespace {

int compare(const std::string& a, const std::string& b)
{
    auto order = DebVersion::parse(a) <=> DebVersion::parse(b);
    return order < 0 ? -1 : order > 0 ? 1 : 0;
}

} // namespace

TEST_CASE("Debian versions order as Debian Policy 5.6.12 says, tilde first", "[deb]")
{
    // Policy 5.6.12: "~~" < "~~a" < "~" < the empty part < "a".
    std::vector<std::string> ascending = { "1.0~~", "1.0~~a", "1.0~", "1.0", "1.0a" };
    for (std::size_t i = 0; i + 1 < ascending.size(); ++i) {
        CAPTURE(ascending[i], ascending[i + 1]);
        CHECK(compare(ascending[i], ascending[i + 1]) == -1);
        CHECK(compare(ascending[i + 1], ascending[i]) == 1);
    }
}

TEST_CASE("Debian versions compare as dpkg's verrevcmp does", "[deb]")
{
    struct Case {
        std::string a;
        std::string b;
        int order;
    };
    // From dpkg's lib/dpkg/t/t-version.c and the versions of Debian 12's own packages.
    std::vector<Case> cases = {
        { "0:0-0", "0-0", 0 }, // no epoch is epoch 0
        { "1:0", "0:0", 1 },
        { "0:1", "0:0", 1 },
        { "0:0-1", "0:0-0", 1 },
        { "1.09", "1.9", 0 }, // digits compare as numbers
        { "1.0", "1.00", 0 },
        { "1.10", "1.9", 1 },
        { "1.0a", "1.0+", -1 }, // letters before non-letters
        { "1.0-0", "1.0", 0 },
        { "2.36-9+deb12u4", "2.34", 1 },
        { "3.11.2-6+deb12u6", "3.11.2-6", 1 },
        { "3.11.2-1~", "3.11.2-1", -1 },
        { "3.11~", "3.11.2-1+b1", -1 },
        { "1:1.24.2-1+deb12u1", "1.26.4-1", 1 }, // the epoch decides
        { "1.0~rc1", "1.0", -1 },
        { "7.6-1ubuntu1", "7.6-1", 1 },
    };
    for (const auto& c : cases) {
        CAPTURE(c.a, c.b);
        CHECK(compare(c.a, c.b) == c.order);
        CHECK(compare(c.b, c.a) == -c.order);
    }
}

TEST_CASE("a Debian version keeps its parts and its spelling", "[deb]")
{
    DebVersion version = DebVersion::parse("1:1.24.2-1+deb12u1");
    CHECK(version.epoch() == 1);
    CHECK(version.upstream() == "1.24.2");
    CHECK(version.revision() == "1+deb12u1");
    CHECK(version.text() == "1:1.24.2-1+deb12u1");
    CHECK(DebVersion::parse("2:1.0-2-1").upstream() == "1.0-2"); // the revision follows the last '-'
}

TEST_CASE("malformed Debian versions are refused with the reason", "[deb]")
{
    struct Case {
        std::string text;
        std::string message;
    };
    std::vector<Case> cases = {
        { "", "Depends: '' is not a Debian version: it is empty" },
        { "a1.0", "Depends: 'a1.0' is not a Debian version: the upstream version does not start with a digit" },
        { "x:1.0", "Depends: 'x:1.0' is not a Debian version: the epoch is not a number" },
        { "1.0-", "Depends: '1.0-' is not a Debian version: the revision holds characters other than [A-Za-z0-9.+~]" },
        { "1.0 1", "Depends: '1.0 1' is not a Debian version: the upstream version holds a character it may not" },
    };
    for (const auto& c : cases) {
        CAPTURE(c.text);
        try {
            DebVersion::parse(c.text, "Depends");
            FAIL("accepted");
        } catch (const Error& e) {
            CHECK(e.code() == ErrorCode::invalid_input);
            CHECK(e.message() == c.message);
        }
    }
}
