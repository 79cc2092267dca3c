#include "core/error.h"
#include "registry/platform.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

oci::Descriptor manifest_for(const std::string& os, const std::string& arch, const std::string& variant, char fill)
{
    return { "application/vnd.oci.image.manifest.v1+json", Digest::from_hex(std::string(64, fill)), 100, {},
        oci::Platform { arch, os, variant } };
}

} // namespace

TEST_CASE("platforms read as OS/ARCH[/VARIANT]", "[registry]")
{
    oci::Platform arm = registry::parse_platform("linux/arm64/v8");
    CHECK(arm.os == "linux");
    CHECK(arm.architecture == "arm64");
    CHECK(arm.variant == "v8");
    CHECK(registry::platform_text(arm) == "linux/arm64/v8");
    CHECK_THROWS_WITH(registry::parse_platform("amd64"), "platform \"amd64\" is not OS/ARCH[/VARIANT]");
    CHECK_THROWS_WITH(registry::parse_platform("linux//v8"), "platform \"linux//v8\" is not OS/ARCH[/VARIANT]");
}

TEST_CASE("the index's manifest for the platform is chosen, a missing one lists the others", "[registry]")
{
    oci::Index index;
    index.manifests = { manifest_for("linux", "arm64", "v8", 'a'), manifest_for("linux", "amd64", "", 'b'),
        manifest_for("unknown", "unknown", "", 'c') };
    CHECK(registry::select_platform(index, { "amd64", "linux", "" }, "x").digest.hex() == std::string(64, 'b'));
    CHECK(registry::select_platform(index, { "arm64", "linux", "" }, "x").digest.hex() == std::string(64, 'a'));
    CHECK_THROWS_WITH(registry::select_platform(index, { "ppc64le", "linux", "" }, "nvidia/cuda:12"),
        "nvidia/cuda:12 has no image for linux/ppc64le");
    try {
        registry::select_platform(index, { "arm64", "linux", "v7" }, "x");
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::not_found);
        CHECK(e.hint() == "it has linux/arm64/v8, linux/amd64; pick one with --platform");
    }
}
