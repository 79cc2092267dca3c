#include "core/error.h"
#include "deb/default_archive.h"
#include "deb/index.h"

#include <catch2/catch.hpp>

#include <string>

using namespace dlenv;
using namespace dlenv::deb;

namespace {

const std::string k_sha256 = "9aae8058b8d02b800bdafc5b340614df1442a2d2abbc2d351947c0fdd67aa08a";

std::string packages_error(const std::string& text)
{
    try {
        parse_packages("Packages", text, "bookworm/main");
    } catch (const Error& e) {
        return e.message();
    }
    return "parsed";
}

std::string stanza_with(const std::string& filename)
{
    return "Package: libblas3\nVersion: 3.11.0-2\nArchitecture: amd64\nFilename: " + filename
        + "\nSize: 148592\nSHA256: " + k_sha256 + "\n";
}

} // namespace

TEST_CASE("a Release lists its index files by path with their sha256 and size", "[deb]")
{
    Release release = parse_release("Release",
        "Origin: Debian\nCodename: bookworm\nMD5Sum:\n 0123 10 main/binary-amd64/Packages\nSHA256:\n " + k_sha256
            + "  8881 main/binary-amd64/Packages.xz\n");
    REQUIRE(release.files.size() == 1);
    CHECK(release.files.at("main/binary-amd64/Packages.xz").sha256 == k_sha256);
    CHECK(release.files.at("main/binary-amd64/Packages.xz").size == 8881);
    CHECK_THROWS_WITH(
        parse_release("Release", "Origin: Debian\nMD5Sum:\n 0123 10 main/x\n"), "Release: no SHA256 field");
}

TEST_CASE("a Packages stanza is refused when its Filename leaves the archive or a field is missing", "[deb]")
{
    CHECK(parse_packages("Packages", stanza_with("pool/main/l/lapack/libblas3_3.11.0-2_amd64.deb"), "bookworm/main")
              .front()
              .origin
        == "bookworm/main");
    CHECK(packages_error(stanza_with("pool/../../etc/passwd.deb"))
        == "Packages:1: Filename: 'pool/../../etc/passwd.deb' is not a path below the archive");
    CHECK(packages_error(stanza_with("/etc/x.deb"))
        == "Packages:1: Filename: '/etc/x.deb' is not a path below the archive");
    CHECK(packages_error(stanza_with("pool/main/x.tar"))
        == "Packages:1: Filename: 'pool/main/x.tar' is not a path below the archive");
    CHECK(packages_error("Package: a1\nVersion: 1\nArchitecture: all\n") == "Packages:1: Filename: missing");
    CHECK(packages_error("Package: a1\nVersion: one\nArchitecture: all\n")
        == "Packages:1: Version: 'one' is not a Debian version: the upstream version does not start with a digit");
}

TEST_CASE("dpkg's status gives the installed packages and refuses one left mid-install", "[deb]")
{
    auto installed = parse_status("status",
        "Package: libc6\nStatus: install ok installed\nVersion: 2.36-9\nArchitecture: amd64\n\n"
        "Package: gone\nStatus: deinstall ok config-files\nVersion: 1\nArchitecture: amd64\n");
    REQUIRE(installed.size() == 1);
    CHECK(installed[0].name == "libc6");
    CHECK_THROWS_WITH(parse_status("status", "Package: tzdata\nStatus: install ok half-configured\nVersion: 1\n"),
        "status:1: tzdata is ok half-configured");
}

TEST_CASE("the default archive follows the base's os-release", "[deb]")
{
    ArchiveSource debian = default_archive(parse_os_release(
        "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nVERSION_ID=\"12\"\nVERSION_CODENAME=bookworm\nID=debian\n"));
    CHECK(debian.url == "https://deb.debian.org/debian");
    CHECK(debian.suites == std::vector<std::string> { "bookworm", "bookworm-updates" });
    CHECK(debian.components == std::vector<std::string> { "main" });
    CHECK(debian.origin == "default for debian 12 (bookworm)");
    ArchiveSource ubuntu
        = default_archive(parse_os_release("ID=ubuntu\nVERSION_ID=\"22.04\"\nVERSION_CODENAME=jammy\n"));
    CHECK(ubuntu.url == "http://archive.ubuntu.com/ubuntu");
    CHECK(ubuntu.components == std::vector<std::string> { "main", "universe" });
    CHECK_THROWS_WITH(default_archive(parse_os_release("ID=rhel\nVERSION_ID=\"8.9\"\n")),
        "the base's os-release says ID=rhel, not debian or ubuntu");
}
