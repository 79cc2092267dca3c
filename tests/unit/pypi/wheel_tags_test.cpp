#include "core/error.h"
#include "pypi/wheel_name.h"
#include "pypi/wheel_tags.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace dlenv;
using namespace dlenv::pypi;

namespace {

Target target(const std::string& python, const std::string& machine, std::uint32_t glibc_minor)
{
    return Target::linux_cpython(PythonVersion::parse(python), machine, 2, glibc_minor);
}

std::vector<std::string> first_tags(const Target& t, std::size_t count)
{
    std::vector<std::string> out;
    for (const auto& tag : supported_tags(t))
        if (out.size() < count)
            out.push_back(tag.str());
    return out;
}

std::size_t position(const Target& t, const std::string& tag)
{
    auto tags = supported_tags(t);
    for (std::size_t i = 0; i < tags.size(); ++i)
        if (tags[i].str() == tag)
            return i;
    return tags.size();
}

} // namespace

TEST_CASE("manylinux platform tags run from the target's glibc down, with the legacy aliases", "[pypi]")
{
    CHECK(platform_tags(target("3.11", "x86_64", 17))
        == std::vector<std::string> { "manylinux_2_17_x86_64", "manylinux2014_x86_64", "manylinux_2_16_x86_64",
            "manylinux_2_15_x86_64", "manylinux_2_14_x86_64", "manylinux_2_13_x86_64", "manylinux_2_12_x86_64",
            "manylinux2010_x86_64", "manylinux_2_11_x86_64", "manylinux_2_10_x86_64", "manylinux_2_9_x86_64",
            "manylinux_2_8_x86_64", "manylinux_2_7_x86_64", "manylinux_2_6_x86_64", "manylinux_2_5_x86_64",
            "manylinux1_x86_64", "linux_x86_64" });
    CHECK(platform_tags(target("3.11", "aarch64", 19))
        == std::vector<std::string> { "manylinux_2_19_aarch64", "manylinux_2_18_aarch64", "manylinux_2_17_aarch64",
            "manylinux2014_aarch64", "linux_aarch64" });
    CHECK(platform_tags(target("3.11", "aarch64", 12)) == std::vector<std::string> { "linux_aarch64" });
}

TEST_CASE("supported tags come in pip's order of preference", "[pypi]")
{
    Target t = target("3.11", "aarch64", 17);
    CHECK(first_tags(t, 8)
        == std::vector<std::string> { "cp311-cp311-manylinux_2_17_aarch64", "cp311-cp311-manylinux2014_aarch64",
            "cp311-cp311-linux_aarch64", "cp311-abi3-manylinux_2_17_aarch64", "cp311-abi3-manylinux2014_aarch64",
            "cp311-abi3-linux_aarch64", "cp311-none-manylinux_2_17_aarch64", "cp311-none-manylinux2014_aarch64" });
    auto all = supported_tags(t);
    // The same list as pip's vendored packaging.tags gives for these platforms.
    REQUIRE(all.size() == 89);
    CHECK(all[74].str() == "py30-none-linux_aarch64");
    CHECK(all[75].str() == "cp311-none-any");
    CHECK(all[76].str() == "py311-none-any");
    CHECK(all[77].str() == "py3-none-any");
    CHECK(all[78].str() == "py310-none-any");
    CHECK(all[88].str() == "py30-none-any");

    Target x86 = target("3.11", "x86_64", 28);
    CHECK(position(x86, "cp311-cp311-manylinux_2_28_x86_64") == 0);
    CHECK(position(x86, "cp311-cp311-manylinux2014_x86_64") < position(x86, "cp311-cp311-manylinux1_x86_64"));
    CHECK(position(x86, "cp311-cp311-manylinux1_x86_64") < position(x86, "cp311-abi3-manylinux_2_28_x86_64"));
    CHECK(position(x86, "cp312-cp312-manylinux_2_17_x86_64") == supported_tags(x86).size());
    CHECK(position(x86, "cp311-cp311-manylinux_2_29_x86_64") == supported_tags(x86).size());
    CHECK(position(x86, "cp311-cp311-linux_x86_64") == position(x86, "cp311-cp311-manylinux1_x86_64") + 1);
    CHECK(position(x86, "cp311-cp311-manylinux2014_aarch64") == supported_tags(x86).size());
    CHECK(position(x86, "cp32-abi3-manylinux1_x86_64") < supported_tags(x86).size());
}

TEST_CASE("wheel file names parse, with build tags and compressed tag sets", "[pypi]")
{
    auto torch = WheelName::parse("torch-2.1.2+cu118-cp311-cp311-manylinux_2_17_x86_64.whl");
    CHECK(torch.key() == "torch");
    CHECK(torch.version.str() == "2.1.2+cu118");
    CHECK_FALSE(torch.build);
    REQUIRE(torch.tags.size() == 1);
    CHECK(torch.tags[0].str() == "cp311-cp311-manylinux_2_17_x86_64");

    auto six = WheelName::parse("six-1.16.0-2b-py2.py3-none-any.whl");
    CHECK(six.build == BuildTag { 2, "b" });
    REQUIRE(six.tags.size() == 2);
    CHECK(six.tags[0].str() == "py2-none-any");
    CHECK(six.tags[1].str() == "py3-none-any");
    CHECK(BuildTag { 10, "" } > BuildTag { 9, "z" });

    auto numpy = WheelName::parse("numpy-1.26.2-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl");
    CHECK(numpy.key() == "numpy");
    CHECK(numpy.tags.size() == 2);

    TagRanking ranking(target("3.11", "x86_64", 17));
    CHECK(ranking.rank(numpy.tags) == 0);
    CHECK(ranking.rank(six.tags) == position(target("3.11", "x86_64", 17), "py3-none-any"));
    CHECK(ranking.rank(WheelName::parse("torch-2.1.2+cu118-cp311-cp311-linux_x86_64.whl").tags)
        == position(target("3.11", "x86_64", 17), "cp311-cp311-linux_x86_64"));

    struct Case {
        const char* name;
        const char* message;
    };
    const std::vector<Case> bad = {
        { "torch-2.1.2.tar.gz", "wheel file name 'torch-2.1.2.tar.gz': it does not end in .whl" },
        { "torch-2.1.2-py3-none.whl",
            "wheel file name 'torch-2.1.2-py3-none.whl': it has 4 dash-separated parts, not 5 or 6" },
        { "torch-two-py3-none-any.whl",
            "wheel file name 'torch-two-py3-none-any.whl': 'two' is not a PEP 440 version" },
        { "torch-2.1-x1-py3-none-any.whl",
            "wheel file name 'torch-2.1-x1-py3-none-any.whl': build tag 'x1' does not start with a number" },
    };
    for (const auto& c : bad) {
        INFO(c.name);
        try {
            WheelName::parse(c.name);
            FAIL("accepted");
        } catch (const Error& e) {
            CHECK(e.message() == c.message);
        }
    }
}
