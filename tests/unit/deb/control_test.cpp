#include "core/error.h"
#include "deb/control.h"
#include "deb/relation.h"

#include <catch2/catch.hpp>

#include <string>

using namespace dlenv;
using namespace dlenv::deb;

namespace {

std::string error_of(const std::string& text, const ControlLimits& limits = {})
{
    try {
        parse_control("Packages", text, limits);
    } catch (const Error& e) {
        return e.message();
    }
    return "parsed";
}

} // namespace

TEST_CASE("control stanzas hold their fields, continuation lines and bytes", "[deb]")
{
    std::string text = "Package: python3\nVersion: 3.11.2-1+b1\nDescription: interactive high-level language\n"
                       " Python, the high-level,\n .\n interactive language.\n\n\n"
                       "package: libc6\nStatus:   install ok installed  \n";
    auto stanzas = parse_control("status", text);
    REQUIRE(stanzas.size() == 2);
    CHECK(stanzas[0].line == 1);
    CHECK(stanzas[0].find("version") == "3.11.2-1+b1"); // names are case-insensitive
    CHECK(stanzas[0].find("Description")
        == "interactive high-level language\n Python, the high-level,\n .\n interactive language.");
    CHECK(stanzas[0].text
        == "Package: python3\nVersion: 3.11.2-1+b1\nDescription: interactive high-level language\n"
           " Python, the high-level,\n .\n interactive language.\n");
    CHECK(stanzas[1].line == 9);
    CHECK(stanzas[1].find("Package") == "libc6");
    CHECK(stanzas[1].find("Status") == "install ok installed");
    CHECK_FALSE(stanzas[1].find("Depends"));
}

TEST_CASE("malformed control text is refused naming the file and line", "[deb]")
{
    CHECK(error_of(" continued\n") == "Packages:1: a continuation line with no field before it");
    CHECK(error_of("Package: a\nno colon here\n")
        == "Packages:2: expected \"Field: value\" or a continuation line starting with a space");
    CHECK(error_of("Package: a\npackage: b\n") == "Packages:2: field package twice in one stanza");
    CHECK(error_of("Package: a\n#x: b\n") == "Packages:2: '#x' is not a field name");
    CHECK(error_of("A: 1\n\nB: 2\n\nC: 3\n", { 2, 10, 100 }) == "Packages:5: more than 2 stanzas");
    CHECK(error_of("A: 1\nB: 2\n", { 10, 1, 100 }) == "Packages:2: more than 1 fields in one stanza");
    CHECK(error_of("A: 12345\n", { 10, 10, 4 }) == "Packages:1: field A is longer than 4 bytes");
}

TEST_CASE("relation fields parse into alternatives with versions", "[deb]")
{
    auto groups = parse_relations(
        "python3 (<< 3.12), python3 (>= 3.11~), python3:any,\n libblas3 | libblas.so.3, libc6 (>= 2.35)", "Depends");
    REQUIRE(groups.size() == 5);
    CHECK(groups[0][0].text() == "python3 (<< 3.12)");
    CHECK(groups[1][0].admits(DebVersion::parse("3.11.2-1+b1")));
    CHECK_FALSE(groups[0][0].admits(DebVersion::parse("3.12.1-1")));
    CHECK(groups[2][0].arch == "any");
    CHECK(groups[2][0].op == Relation::Op::any);
    REQUIRE(groups[3].size() == 2);
    CHECK(groups[3][1].name == "libblas.so.3");
    CHECK(groups[4][0].op == Relation::Op::later_equal);
    CHECK(parse_relations("", "Depends").empty());
}

TEST_CASE("relations a binary package cannot have are refused", "[deb]")
{
    auto error_of_relation = [](const std::string& text) {
        try {
            parse_relations(text, "x:3: Depends");
            return std::string("parsed");
        } catch (const Error& e) {
            return e.message();
        }
    };
    CHECK(error_of_relation("libc6 [amd64]")
        == "x:3: Depends: 'libc6 [amd64]': architecture and build-profile "
           "restrictions are for source packages");
    CHECK(error_of_relation("libc6:i386 (>= 2)") == "parsed");
    CHECK(error_of_relation("libc6:") == "x:3: Depends: 'libc6:': the qualifier : is no architecture");
    CHECK(error_of_relation("Libc6") == "x:3: Depends: 'Libc6': not a package name");
    CHECK(error_of_relation("libc6 (~ 2)")
        == "x:3: Depends: 'libc6 (~ 2)': expected one of << <= = >= >> before the version");
    CHECK(error_of_relation("ab |, cd") == "x:3: Depends: an empty relation in 'ab |'");
}
