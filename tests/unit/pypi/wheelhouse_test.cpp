#include "core/error.h"
#include "core/sha256.h"
#include "pypi/wheelhouse.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

using namespace dlenv;
using namespace dlenv::pypi;

namespace {

const std::string k_make_wheels = std::string(DLENV_SOURCE_DIR) + "/tests/fixtures/wheels/make_wheels.py";

} // namespace

TEST_CASE("a wheelhouse lists a project's wheels with sha256 and size, and reads their metadata", "[pypi]")
{
    Scratch scratch;
    scratch.sh("python3 '" + k_make_wheels + "' wheels resolve && touch wheels/README.txt");
    WheelhouseIndex index(scratch / "wheels");
    CHECK(index.name() == (scratch / "wheels").string());
    CHECK(index.files("no-such-project").empty());

    auto files = index.files("nvidia-cudnn-cu11");
    REQUIRE(files.size() == 2);
    CHECK(files[0].filename == "nvidia_cudnn_cu11-8.7.0.84-py3-none-manylinux1_x86_64.whl");
    CHECK(files[0].project == "nvidia-cudnn-cu11");
    CHECK(files[0].url == "file://" + (scratch / "wheels" / files[0].filename).string());
    CHECK(files[0].sha256 == sha256_file_hex(scratch / "wheels" / files[0].filename));
    CHECK(
        files[0].size == static_cast<std::int64_t>(std::filesystem::file_size(scratch / "wheels" / files[0].filename)));

    auto torch = index.files("torch");
    REQUIRE(torch.size() == 4);
    CHECK(torch[0].filename == "torch-2.1.2+cu118-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl");
    Metadata metadata = index.metadata(torch[0]);
    CHECK(metadata.name == "torch");
    CHECK(metadata.version.str() == "2.1.2+cu118");
    REQUIRE(metadata.requires_python);
    CHECK(metadata.requires_python->str() == ">=3.8.0");
    CHECK(metadata.provides_extra == std::vector<std::string> { "opt-einsum" });
    REQUIRE(metadata.requires_dist.size() == 7);
    CHECK(metadata.requires_dist[2].str()
        == "nvidia-cudnn-cu11==8.7.0.84; platform_system == \"Linux\" and platform_machine == \"x86_64\"");
    CHECK(metadata.requires_dist[6].str() == "opt-einsum>=3.3; extra == \"opt-einsum\"");
}

TEST_CASE("Debian's pip and setuptools wheels read as the metadata they carry", "[pypi]")
{
    Metadata pip = read_wheel_metadata("/usr/share/python-wheels/pip-23.0.1-py3-none-any.whl");
    CHECK(pip.name == "pip");
    CHECK(pip.version.str() == "23.0.1");
    REQUIRE(pip.requires_python);
    CHECK(pip.requires_python->str() == ">=3.7");
    CHECK(pip.requires_dist.empty());

    Metadata setuptools = read_wheel_metadata("/usr/share/python-wheels/setuptools-66.1.1-py3-none-any.whl");
    CHECK(setuptools.name == "setuptools");
    CHECK(setuptools.version.str() == "66.1.1");
    CHECK(setuptools.provides_extra
        == std::vector<std::string> { "certs", "docs", "ssl", "testing", "testing-integration" });
    CHECK(setuptools.requires_dist.size() == 45);
    CHECK(setuptools.requires_dist[1].str() == "jaraco.packaging>=9; extra == 'docs'");
}

TEST_CASE("a wheelhouse refuses a wheel whose name does not parse or whose metadata disagrees with it", "[pypi]")
{
    Scratch scratch;
    scratch.sh("mkdir bad && touch bad/torch.whl");
    try {
        WheelhouseIndex index(scratch / "bad");
        FAIL("accepted");
    } catch (const Error& e) {
        CHECK(e.message() == "wheel file name 'torch.whl': it has 1 dash-separated parts, not 5 or 6");
    }

    scratch.sh("python3 '" + k_make_wheels
        + "' wheels resolve && mkdir renamed && "
          "cp wheels/filelock-3.12.0-py3-none-any.whl renamed/filelock-3.13.1-py3-none-any.whl");
    WheelhouseIndex renamed(scratch / "renamed");
    try {
        renamed.metadata(renamed.files("filelock").at(0));
        FAIL("accepted");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(std::string(e.what())
            == "wheelhouse " + (scratch / "renamed").string()
                + ": wheel filelock-3.13.1-py3-none-any.whl: its metadata says filelock 3.12.0, its file name filelock "
                  "3.13.1");
    }

    try {
        read_wheel_metadata(scratch / "nowhere/filelock-3.13.1-py3-none-any.whl");
        FAIL("accepted");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::not_found);
        CHECK(e.message()
            == "open wheel " + (scratch / "nowhere/filelock-3.13.1-py3-none-any.whl").string() + ": no such file");
    }
    try {
        WheelhouseIndex missing(scratch / "nowhere");
        FAIL("accepted");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::not_found);
    }
}
