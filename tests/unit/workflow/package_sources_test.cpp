#include "core/error.h"
#include "matrix/matrix.h"
#include "resolve/profile.h"
#include "workflow/package_sources.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

std::string refusal(const std::string& text)
{
    try {
        workflow::parse_index_option(text);
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        return e.message() + " | " + e.hint();
    }
    return "accepted";
}

struct Resolved {
    resolve::Profile profile;
    resolve::Stack stack;
};

Resolved shipped(const std::string& name)
{
    resolve::Profile profile = resolve::load_profile(name);
    resolve::Resolution resolution = resolve::resolve_profile(matrix::Matrix::embedded(), profile, {});
    REQUIRE(resolution.stack);
    return { profile, *resolution.stack };
}

} // namespace

TEST_CASE("an --index option is NAME=URL, and anything else is refused with an example", "[workflow]")
{
    workflow::IndexOption mirror = workflow::parse_index_option("pypi=https://mirror.example/simple/?a=b");
    CHECK(mirror.name == "pypi");
    CHECK(mirror.url == "https://mirror.example/simple/?a=b");
    CHECK(workflow::parse_index_option("local=").url.empty());

    const std::string hint = " | for example --index pypi=https://mirror.example/simple/";
    CHECK(refusal("https://mirror.example/simple/")
        == "--index https://mirror.example/simple/: expected NAME=URL" + hint);
    CHECK(refusal("=https://mirror.example/simple/")
        == "--index =https://mirror.example/simple/: expected NAME=URL" + hint);
    CHECK(refusal("") == "--index : expected NAME=URL" + hint);
}

TEST_CASE("an --index mirror serves a profile's index from a mirror, or adds one, a wheelhouse replaces them all",
    "[workflow]")
{
    Resolved torch = shipped("pytorch-2.1-cu118");
    lock::PackageSources sources = workflow::requested_sources(
        { std::nullopt, { "pypi=https://mirror.example/simple/", "extra=https://extra.example/simple/" } },
        torch.profile, torch.stack);
    CHECK(sources.indexes
        == std::map<std::string, std::string> { { "extra", "https://extra.example/simple/" },
            { "pypi", "https://mirror.example/simple/" }, { "pytorch", "https://download.pytorch.org/whl/cu118/" } });
    CHECK(sources.default_index == "pypi");

    CHECK_THROWS_WITH(workflow::requested_sources({ std::nullopt, { "pypi" } }, torch.profile, torch.stack),
        "--index pypi: expected NAME=URL");

    lock::PackageSources wheelhouse
        = workflow::requested_sources({ std::filesystem::path("/srv/wheels"), { "pypi" } }, torch.profile, torch.stack);
    CHECK(wheelhouse.indexes == std::map<std::string, std::string> { { "wheelhouse", "file:///srv/wheels" } });
    CHECK(wheelhouse.default_index == "wheelhouse");
    CHECK(wheelhouse.index_of.empty());
}
