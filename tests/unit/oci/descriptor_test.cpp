#include "core/error.h"
#include "oci/descriptor.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

std::string manifest_error(const std::string& text)
{
    try {
        oci::Manifest::parse(text, "m");
    } catch (const Error& e) {
        return std::string(to_string(e.code())) + ": " + e.what();
    }
    return "parsed";
}

const std::string k_config = R"("config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": )"
                             R"("sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a", "size": 2})";

} // namespace

TEST_CASE("a manifest whose optional strings are of another type is refused naming the field", "[oci]")
{
    auto [text, error] = GENERATE_COPY(table<std::string, std::string>({
        { R"({"schemaVersion": 2, "mediaType": {"mediaType": "x"}})",
            "invalid_input: m: \"mediaType\" must be a string" },
        { R"({"schemaVersion": 2, "mediaType": 7, )" + k_config + R"(, "layers": []})",
            "invalid_input: m: \"mediaType\" must be a string" },
        { R"({"schemaVersion": 2, "config": {"mediaType": "a", "size": 2, "digest": )"
          R"("sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a", )"
          R"("platform": {"architecture": "amd64", "os": "linux", "variant": []}}, "layers": []})",
            "invalid_input: m config platform: \"variant\" must be a string" },
    }));
    CAPTURE(text);
    CHECK(manifest_error(text) == error);
}

TEST_CASE("a manifest without a media type or with a null variant is read with the defaults", "[oci]")
{
    oci::Manifest manifest
        = oci::Manifest::parse(R"({"schemaVersion": 2, "mediaType": null, )" + k_config + R"(, "layers": []})", "m");
    CHECK(manifest.media_type == "application/vnd.oci.image.manifest.v1+json");
}

TEST_CASE("a descriptor whose digest is not a sha256 digest is refused naming where it was read", "[oci]")
{
    CHECK(manifest_error(R"({"schemaVersion": 2, )" + k_config
              + R"(, "layers": [{"mediaType": "a", "size": 1, )"
                R"("digest": "sha512:00"}]})")
        == "invalid_input: m layers[0]: \"digest\": not a sha256 digest: \"sha512:00\"");
}
