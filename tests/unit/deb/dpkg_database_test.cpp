#include "deb/dpkg_database.h"

#include <catch2/catch.hpp>

#include <string>

using namespace dlenv::deb;

TEST_CASE("dpkg's database after an install keeps the base's stanzas and adds the packages'", "[deb]")
{
    std::string base = "Package: dpkg\nStatus: install ok installed\nVersion: 1.21.22\nArchitecture: amd64\n\n"
                       "Package: tar\nStatus: install ok installed\nVersion: 1.34+dfsg-1.2\nArchitecture: amd64\n";
    UnpackedPackage blas { "libblas3", "amd64", "same",
        { { "control",
              "Package: libblas3\nVersion: 3.11.0-2\nArchitecture: amd64\nMulti-Arch: same\n"
              "Description: Basic Linear Algebra\n shared library\n" },
            { "md5sums", "0123  usr/lib/x86_64-linux-gnu/blas/libblas.so.3.11.0\n" }, { "postinst", "#!/bin/sh\n" } },
        { "/.", "/usr", "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3.11.0" }, {} };
    // As media-types 10.0.0's .deb has it: md5sums leaves the conffile out, so its MD5 is
    // the one of the file as unpacked; a remove-on-upgrade line names no file it ships.
    UnpackedPackage media { "media-types", "all", "foreign",
        { { "control", "Package: media-types\nVersion: 10.0.0\nArchitecture: all\n" },
            { "md5sums", "ef01  usr/share/doc/media-types/copyright\n" },
            { "conffiles", "/etc/mime.types\nremove-on-upgrade /etc/mime.types.old\n" } },
        { "/.", "/etc", "/etc/mime.types" }, { { "/etc/mime.types", "abcd" } } };
    auto files = dpkg_database(base, { blas, media });
    CHECK(files.at("var/lib/dpkg/status").contents
        == "Package: dpkg\nStatus: install ok installed\nVersion: 1.21.22\nArchitecture: amd64\n\n"
           "Package: libblas3\nStatus: install ok installed\nVersion: 3.11.0-2\nArchitecture: amd64\n"
           "Multi-Arch: same\nDescription: Basic Linear Algebra\n shared library\n\n"
           "Package: media-types\nStatus: install ok installed\nVersion: 10.0.0\nArchitecture: all\n"
           "Conffiles:\n /etc/mime.types abcd\n\n"
           "Package: tar\nStatus: install ok installed\nVersion: 1.34+dfsg-1.2\nArchitecture: amd64\n\n");
    CHECK(files.at("var/lib/dpkg/info/libblas3:amd64.list").contents
        == "/.\n/usr\n/usr/lib/x86_64-linux-gnu/blas/libblas.so.3.11.0\n");
    CHECK(files.at("var/lib/dpkg/info/libblas3:amd64.postinst").mode == 0755);
    CHECK(files.at("var/lib/dpkg/info/media-types.conffiles").contents
        == "/etc/mime.types\nremove-on-upgrade /etc/mime.types.old\n");
    CHECK(files.at("var/lib/dpkg/info/format").contents == "1\n");
    CHECK_FALSE(files.contains("var/lib/dpkg/info/media-types.control")); // its fields are in status
    CHECK(files.size() == 8);
}
