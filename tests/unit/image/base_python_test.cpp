// Finding the base's own Python from its files, and where the lock's packages go with it.
#include "image/base_python.h"

#include "core/error.h"
#include "core/file.h"

#include <catch2/catch.hpp>

using namespace dlenv;
using dlenv::oci::TarEntry;

namespace {

// The entries of a base: "path" a file, "path/" a directory, "path -> target" a link.
std::map<std::string, TarEntry> files_of(const std::vector<std::string>& specs)
{
    std::map<std::string, TarEntry> out;
    for (const auto& spec : specs) {
        TarEntry entry;
        if (std::size_t arrow = spec.find(" -> "); arrow != std::string::npos) {
            entry.path = spec.substr(0, arrow);
            entry.type = TarEntry::Type::symlink;
            entry.link_target = spec.substr(arrow + 4);
        } else if (spec.ends_with('/')) {
            entry.path = spec.substr(0, spec.size() - 1);
            entry.type = TarEntry::Type::directory;
        } else {
            entry.path = spec;
        }
        out[entry.path] = entry;
    }
    return out;
}

} // namespace

TEST_CASE("Debian's python3 is found through its link, with apt's dist-packages and its PEP 668 mark", "[image]")
{
    // As Debian 12's python3 and libpython3.11-stdlib lay them down.
    auto python = image::find_base_python(files_of({ "usr/bin/python3 -> python3.11", "usr/bin/python3.11",
        "usr/lib/python3/dist-packages/", "usr/lib/python3.11/EXTERNALLY-MANAGED" }));
    REQUIRE(python);
    CHECK(python->interpreter == "/usr/bin/python3.11");
    CHECK(python->version.text() == "3.11");
    CHECK(python->debian);
    CHECK(python->externally_managed);
}

TEST_CASE("Debian's minimal python3, without apt's dist-packages, is known by its sitecustomize", "[image]")
{
    // libpython3.11-minimal installs /etc/python3.11/sitecustomize.py; python3.11 the dist-packages.
    auto minimal = image::find_base_python(
        files_of({ "usr/bin/python3 -> python3.11", "usr/bin/python3.11", "etc/python3.11/sitecustomize.py" }));
    REQUIRE(minimal);
    CHECK(minimal->debian);
    auto other = image::find_base_python(files_of({ "usr/bin/python3 -> python3.11", "usr/bin/python3.11" }));
    REQUIRE(other);
    CHECK_FALSE(other->debian);
}

TEST_CASE("/usr/local/bin/python3 comes first, as PATH has it, and is never Debian's", "[image]")
{
    auto python = image::find_base_python(
        files_of({ "usr/local/bin/python3 -> /usr/local/bin/python3.12", "usr/local/bin/python3.12",
            "usr/bin/python3 -> python3.11", "usr/bin/python3.11", "usr/lib/python3/dist-packages/" }));
    REQUIRE(python);
    CHECK(python->interpreter == "/usr/local/bin/python3.12");
    CHECK_FALSE(python->debian);
    CHECK_FALSE(python->externally_managed);
}

TEST_CASE("no python3, a dangling link or a link loop is no Python", "[image]")
{
    CHECK_FALSE(image::find_base_python(files_of({ "usr/bin/sh" })));
    CHECK_FALSE(image::find_base_python(files_of({ "usr/bin/python3 -> /etc/alternatives/python3" })));
    CHECK_FALSE(image::find_base_python(files_of({ "usr/bin/python3 -> python3.9", "usr/bin/python3.9 -> python3" })));
    CHECK_FALSE(image::find_base_python(files_of({ "usr/bin/python3 -> python3.11", "usr/bin/python3.11/" })));
}

TEST_CASE("the paths read are the python3 commands and what decides the scheme", "[image]")
{
    for (const auto* path : { "usr/bin/python3", "usr/bin/python3.11", "usr/local/bin/python3",
             "usr/lib/python3/dist-packages", "usr/lib/python3.11/EXTERNALLY-MANAGED" })
        CHECK(image::python_path(path));
    for (const auto* path : { "usr/bin/python3-config", "usr/lib/python3.11/os.py", "usr/lib/python3/dist-packages/x",
             "opt/usr/bin/python3" })
        CHECK_FALSE(image::python_path(path));
}

TEST_CASE("the packages go where the base's Python reads them", "[image]")
{
    image::BasePython debian { "/usr/bin/python3.11", PythonVersion::parse("3.11"), true, false };
    pypi::InstallScheme scheme = image::packages_scheme_for(debian);
    CHECK(scheme.purelib == "usr/local/lib/python3.11/dist-packages");
    CHECK(scheme.platlib == "usr/local/lib/python3.11/dist-packages");
    CHECK(scheme.scripts == "usr/local/bin");
    CHECK(scheme.data == "usr/local");
    CHECK(scheme.headers == "usr/include/python3.11");
    CHECK(scheme.interpreter == "/usr/bin/python3.11");

    image::BasePython fedora { "/usr/bin/python3.12", PythonVersion::parse("3.12"), false, true };
    scheme = image::packages_scheme_for(fedora);
    CHECK(scheme.purelib == "usr/lib/python3.12/site-packages");
    CHECK(scheme.scripts == "usr/bin");
    CHECK(scheme.interpreter == "/usr/bin/python3.12");
}

TEST_CASE("a lock's python-build-standalone runtime gets the packages in its own prefix, named in a line", "[image]")
{
    // The shipped profiles ask for "python_runtime": "3.10"; its CPython is installed as
    // `make install` lays out a prefix, so it reads prefix/lib/python3.10/site-packages.
    std::string file = std::string(DLENV_SOURCE_DIR) + "/lockfiles/pytorch-2.1-cu118.lock.json";
    lock::Lockfile lock = lock::Lockfile::parse(file, read_file(file));
    image::BasePython debian { "/usr/bin/python3.11", PythonVersion::parse("3.11"), true, false };
    for (const auto& base : { std::optional<image::BasePython>(), std::optional(debian) }) {
        image::PackagesTarget target
            = image::packages_target(lock, base, "nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04");
        CHECK(target.scheme.purelib == "usr/local/lib/python3.10/site-packages");
        CHECK(target.scheme.platlib == "usr/local/lib/python3.10/site-packages");
        CHECK(target.scheme.scripts == "usr/local/bin");
        CHECK(target.scheme.headers == "usr/local/include/python3.10");
        CHECK(target.scheme.interpreter == "/usr/local/bin/python3.10");
        CHECK(target.notes
            == std::vector<std::string> { "Python packages for python-build-standalone's CPython 3.10.19 (20251031) "
                                          "/usr/local/bin/python3.10 into /usr/local/lib/python3.10/site-packages" });
    }
}
