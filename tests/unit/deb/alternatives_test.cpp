#include "deb/alternatives.h"

#include <catch2/catch.hpp>

#include <string>

using namespace dlenv::deb;

// Debian 12's libblas3 3.11.0-2 postinst, as `dpkg-deb -I libblas3_3.11.0-2_amd64.deb
// postinst` prints it.
const std::string k_blas_postinst = "#!/bin/sh\n\nset -e\n\n"
                                    "update-alternatives --install /usr/lib/x86_64-linux-gnu/libblas.so.3 \\\n"
                                    "                    libblas.so.3-x86_64-linux-gnu "
                                    "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3 10\n\n\n\nexit 0\n";

TEST_CASE("a postinst's literal update-alternatives --install lines are read", "[deb]")
{
    auto found = installed_alternatives(k_blas_postinst);
    REQUIRE(found.size() == 1);
    CHECK(found[0].link == "/usr/lib/x86_64-linux-gnu/libblas.so.3");
    CHECK(found[0].name == "libblas.so.3-x86_64-linux-gnu");
    CHECK(found[0].path == "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3");
    CHECK(found[0].priority == 10);
    CHECK(installed_alternatives("update-alternatives --install /usr/bin/x x \"$DIR/x\" 10\n").empty());
    CHECK(installed_alternatives("update-alternatives --install /usr/bin/x x ../x 10\n").empty());
}

TEST_CASE("alternatives are set up as update-alternatives leaves them in auto mode", "[deb]")
{
    auto blas = installed_alternatives(k_blas_postinst);
    Alternative openblas { blas[0].link, blas[0].name, "/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3", 100,
        {} };
    blas.push_back(openblas);
    AlternativeFiles files = alternative_files(blas);
    CHECK(files.symlinks.at("usr/lib/x86_64-linux-gnu/libblas.so.3")
        == "/etc/alternatives/libblas.so.3-x86_64-linux-gnu");
    CHECK(files.symlinks.at("etc/alternatives/libblas.so.3-x86_64-linux-gnu")
        == "/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3"); // the higher priority
    CHECK(files.admin_files.at("var/lib/dpkg/alternatives/libblas.so.3-x86_64-linux-gnu")
        == "auto\n/usr/lib/x86_64-linux-gnu/libblas.so.3\n\n/usr/lib/x86_64-linux-gnu/blas/libblas.so.3\n10\n"
           "/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3\n100\n\n");
}
