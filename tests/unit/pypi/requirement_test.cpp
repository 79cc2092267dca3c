#include "core/error.h"
#include "pypi/requirement.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace dlenv;
using namespace dlenv::pypi;

namespace {

const MarkerEnvironment& linux_x86_311()
{
    static const MarkerEnvironment env
        = marker_environment(Target::linux_cpython(PythonVersion::parse("3.11.7"), "x86_64", 2, 28));
    return env;
}

bool marker(const std::string& text, std::string_view extra = "")
{
    return Marker::parse(text).evaluate(linux_x86_311(), extra);
}

std::string error_message(const std::string& requirement)
{
    try {
        Requirement::parse(requirement);
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        return e.message();
    }
    return "accepted";
}

} // namespace

TEST_CASE("requirements parse into name, extras, specifiers and marker", "[pypi]")
{
    auto r = Requirement::parse("Torch[CUDA, dev_tools ,cuda] (>=2.1,!=2.1.1) ; python_version >= '3.8'");
    CHECK(r.name == "Torch");
    CHECK(r.key() == "torch");
    CHECK(r.extras == std::vector<std::string> { "cuda", "dev-tools" });
    CHECK(r.specifiers.str() == ">=2.1,!=2.1.1");
    REQUIRE(r.marker);
    CHECK(r.marker->str() == "python_version >= '3.8'");
    CHECK(r.str() == "Torch[cuda,dev-tools]>=2.1,!=2.1.1; python_version >= '3.8'");

    auto bare = Requirement::parse("nvidia-cudnn-cu11==8.7.0.84");
    CHECK(bare.key() == "nvidia-cudnn-cu11");
    CHECK(bare.extras.empty());
    CHECK(bare.specifiers.str() == "==8.7.0.84");
    CHECK_FALSE(bare.marker);

    CHECK(Requirement::parse("filelock").specifiers.empty());
}

TEST_CASE("requirements that name a URL or are malformed are refused", "[pypi]")
{
    CHECK(error_message("torch @ https://download.pytorch.org/whl/torch-2.1.2.whl")
        == "requirement 'torch @ https://download.pytorch.org/whl/torch-2.1.2.whl': it names a URL "
           "('https://download.pytorch.org/whl/torch-2.1.2.whl'), not versions from an index");
    CHECK(error_message(">=1.0") == "requirement '>=1.0': it starts with no project name");
    CHECK(error_message("torch[cuda") == "requirement 'torch[cuda': the list of extras is not closed");
    CHECK(error_message("torch >=2.1.*")
        == "requirement 'torch >=2.1.*': '>=2.1.*' is not a PEP 440 version specifier: only == and != take a trailing "
           ".*");
    CHECK(error_message("torch; python_version >>= '3'")
        == "requirement 'torch; python_version >>= '3'': marker 'python_version >>= '3'': "
           "expected a marker variable or a quoted string at '>= '3''");
    CHECK(error_message("torch;") == "requirement 'torch;': ';' is followed by no marker");
}

TEST_CASE("markers are evaluated for the target, not for this machine", "[pypi]")
{
    CHECK(marker("python_version >= '3.8'"));
    CHECK_FALSE(marker("python_version < '3.11'"));
    CHECK(marker("python_version == '3.11'"));
    CHECK(marker("python_full_version >= '3.11.7'"));
    CHECK_FALSE(marker("python_full_version > '3.11.7'"));
    CHECK(marker("sys_platform == 'linux' and platform_machine == 'x86_64'"));
    CHECK_FALSE(marker("sys_platform == 'win32' or sys_platform == 'darwin'"));
    CHECK(marker("platform_system == \"Linux\" and os_name == \"posix\""));
    CHECK(marker("implementation_name == 'cpython' and platform_python_implementation == 'CPython'"));
    CHECK(marker("(sys_platform == 'darwin' or python_version >= '3.9') and os.name == 'posix'"));
    CHECK(marker("'linux' in sys_platform"));
    CHECK(marker("platform_machine not in 'aarch64 arm64'"));
    CHECK(marker("python_version ~= '3.10'"));
    CHECK(marker("python_version == '3.*'"));
    // extra compares normalised names and is false when no extra is installed.
    CHECK(marker("extra == 'Dev_Tools'", "dev-tools"));
    CHECK_FALSE(marker("extra == 'cuda'"));
    CHECK(Marker::parse("extra == 'cuda' and python_version > '3'").mentions_extra());
    CHECK_FALSE(Marker::parse("python_version > '3'").mentions_extra());

    auto aarch64 = marker_environment(Target::linux_cpython(PythonVersion::parse("3.10"), "aarch64", 2, 31));
    CHECK(Marker::parse("platform_machine == 'aarch64' and python_full_version == '3.10.0'").evaluate(aarch64));

    try {
        marker("platform_system < 'Linux'");
        FAIL("accepted");
    } catch (const Error& e) {
        CHECK(e.message()
            == "marker 'platform_system < 'Linux'': 'Linux' < 'Linux' compares strings that are not versions");
    }
}
