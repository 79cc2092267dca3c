#include "core/error.h"
#include "deb/index.h"
#include "deb/resolver.h"

#include <catch2/catch.hpp>

#include <algorithm>

#include <string>
#include <vector>

using namespace dlenv;
using namespace dlenv::deb;

namespace {

// A Packages stanza with the fields every one has; the sha256 is the empty file's.
std::string stanza(const std::string& name, const std::string& version, const std::string& extra = "",
    const std::string& architecture = "amd64")
{
    return "Package: " + name + "\nVersion: " + version + "\nArchitecture: " + architecture + "\n" + extra
        + "Filename: pool/main/" + name + "_" + version + "_" + architecture + ".deb\nSize: 1\n"
        + "SHA256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n\n";
}

// The relations of Debian 12's python3, shortened to the chain that matters here.
const std::string k_archive = stanza("python3", "3.11.2-1+b1",
                                  "Pre-Depends: python3-minimal (= 3.11.2-1+b1)\n"
                                  "Depends: python3.11 (>= 3.11.2-1~), libpython3-stdlib (= 3.11.2-1+b1)\n")
    + stanza("python3-minimal", "3.11.2-1+b1", "Depends: dpkg (>= 1.13.20)\n")
    + stanza("python3.11", "3.11.2-6+deb12u6",
        "Depends: libpython3.11-stdlib (= 3.11.2-6+deb12u6), media-types | mime-support\n")
    + stanza("python3.11", "3.11.2-6", "Depends: libpython3.11-stdlib (= 3.11.2-6)\n")
    + stanza("libpython3-stdlib", "3.11.2-1+b1", "Depends: libpython3.11-stdlib (>= 3.11.2-1~)\n")
    + stanza("libpython3.11-stdlib", "3.11.2-6", "Depends: libc6 (>= 2.34)\n")
    + stanza("mime-support", "3.66", "", "all")
    + stanza("python3-numpy", "1:1.24.2-1+deb12u1",
        "Depends: python3 (<< 3.12), python3:any, libblas3 | libblas.so.3, libc6 (>= 2.38)\n"
        "Provides: python3-numpy-abi9, python3-f2py\n")
    + stanza("libopenblas0-pthread", "0.3.21+ds-4", "Provides: libblas.so.3\n");

const std::string k_status = "Package: dpkg\nStatus: install ok installed\nVersion: 1.21.22\nArchitecture: amd64\n\n"
                             "Package: libc6\nStatus: install ok installed\nVersion: 2.36-9+deb12u4\n"
                             "Architecture: amd64\nMulti-Arch: same\n\n"
                             "Package: removed\nStatus: deinstall ok config-files\nVersion: 1\nArchitecture: amd64\n";

// The archive with python3.11's stdlib relation met by the one stdlib it has.
std::string satisfiable_archive()
{
    std::string archive = k_archive;
    std::string exact = "libpython3.11-stdlib (= 3.11.2-6+deb12u6)";
    archive.replace(archive.find(exact), exact.size(), "libpython3.11-stdlib (>= 3.11.2-6)");
    return archive;
}

std::string error_of(const std::vector<std::string>& names, const std::string& archive = k_archive)
{
    try {
        resolve_install(
            { names, "amd64" }, parse_packages("Packages", archive, "bookworm/main"), parse_status("status", k_status));
    } catch (const Error& e) {
        return std::string(to_string(e.code())) + ": " + e.message() + (e.hint().empty() ? "" : " [" + e.hint() + "]");
    }
    return "resolved";
}

} // namespace

TEST_CASE("the resolver adds the closure the base lacks, newest versions first", "[deb]")
{
    std::string archive = satisfiable_archive();
    Resolution resolution = resolve_install({ { "python3", "dpkg" }, "amd64" },
        parse_packages("Packages", archive, "bookworm/main"), parse_status("status", k_status));
    std::vector<std::string> chosen;
    for (const auto& package : resolution.packages)
        chosen.push_back(package.package.name + " " + package.package.version.text());
    CHECK(chosen
        == std::vector<std::string> { "libpython3-stdlib 3.11.2-1+b1", "libpython3.11-stdlib 3.11.2-6",
            "mime-support 3.66", "python3 3.11.2-1+b1", "python3-minimal 3.11.2-1+b1", "python3.11 3.11.2-6+deb12u6" });
    CHECK(resolution.already_installed == std::vector<std::string> { "dpkg" });
    CHECK(resolution.packages[1].required_by == std::vector<std::string> { "libpython3-stdlib", "python3.11" });
    CHECK(resolution.packages[3].required_by == std::vector<std::string> { "profile" });
}

TEST_CASE("an unsatisfiable dependency names the chain that led to it", "[deb]")
{
    CHECK(error_of({ "python3" })
        == "conflict: python3 -> python3.11 (>= 3.11.2-1~) -> libpython3.11-stdlib (= 3.11.2-6+deb12u6): no version "
           "of libpython3.11-stdlib satisfies it; the archive has 3.11.2-6 [the archive lacks what the package needs: "
           "use the suite it was built for, or another snapshot]");
}

TEST_CASE("a base package too old for a dependency is named with what needs it", "[deb]")
{
    CHECK(error_of({ "python3-numpy" }, satisfiable_archive())
              .starts_with("conflict: python3-numpy -> libc6 (>= 2.38): the base has libc6 "
                           "2.36-9+deb12u4, which does not satisfy it, and dlenv does not "
                           "upgrade the base's packages"));
}

TEST_CASE("an unknown package is bad input, with the names closest to it", "[deb]")
{
    CHECK(error_of({ "python3-nump" })
        == "invalid_input: no package python3-nump in the archive [did you mean "
           "python3-numpy, python3 or python3.11?]");
}

TEST_CASE("virtual packages are satisfied by their providers", "[deb]")
{
    std::string archive = satisfiable_archive();
    archive.replace(archive.find("libc6 (>= 2.38)"), 15, "libc6 (>= 2.36)");
    archive.replace(archive.find("libblas3 | "), 11, "");
    Resolution resolution = resolve_install({ { "python3-numpy", "python3-f2py" }, "amd64" },
        parse_packages("Packages", archive, "bookworm/main"), parse_status("status", k_status));
    std::vector<std::string> names;
    for (const auto& package : resolution.packages)
        names.push_back(package.package.name);
    CHECK(std::find(names.begin(), names.end(), "libopenblas0-pthread") != names.end());
    CHECK(std::count(names.begin(), names.end(), "python3-numpy") == 1); // python3-f2py is its own Provides
}

TEST_CASE("a relation qualified with another architecture is not met by this one's packages", "[deb]")
{
    CHECK(error_of({ "cross-tool" }, k_archive + stanza("cross-tool", "1.0", "Depends: libc6:arm64 (>= 2.36)\n"))
        == "conflict: cross-tool -> libc6:arm64 (>= 2.36): libc6:arm64 (>= 2.36) is for another architecture than "
           "amd64 [the archive lacks what the package needs: use the suite it was built for, or another snapshot]");
}
