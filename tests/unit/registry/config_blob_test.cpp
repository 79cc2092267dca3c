#include "core/digest.h"
#include "core/error.h"
#include "registry/blob_transfer.h"
#include "unit/registry/canned_registry.h"

#include <catch2/catch.hpp>

using namespace dlenv;
using nlohmann::json;

namespace {

const std::string k_config = R"({"config":{"Env":["CUDA_VERSION=11.8.0"]}})";

oci::Descriptor config_descriptor(const std::string& bytes)
{
    return { "application/vnd.oci.image.config.v1+json", Digest::of(bytes), static_cast<std::int64_t>(bytes.size()), {},
        std::nullopt };
}

// A registry whose repository team/cuda answers the blob of `config` with `body`.
json answers(const oci::Descriptor& config, const std::string& body)
{
    return { { "GET /v2/", { { "status", 200 } } },
        { "GET /v2/team/cuda/blobs/" + config.digest.text(), { { "status", 200 }, { "body", body } } } };
}

} // namespace

TEST_CASE("an image config is read in one request and returned when its bytes match the descriptor", "[registry]")
{
    oci::Descriptor config = config_descriptor(k_config);
    CannedRegistry registry(answers(config, k_config));
    auto session = registry.session();
    CHECK(registry::get_config_blob(session, "team/cuda", config) == k_config);
    CHECK(registry.requests() == "GET /v2/\nGET /v2/team/cuda/blobs/" + config.digest.text() + "\n");
}

TEST_CASE("an image config whose bytes are not the descriptor's is refused", "[registry]")
{
    oci::Descriptor config = config_descriptor(k_config);
    std::string changed = R"({"config":{"Env":["CUDA_VERSION=12.1.1"]}})";
    CannedRegistry registry(answers(config, changed));
    auto session = registry.session();
    try {
        registry::get_config_blob(session, "team/cuda", config);
        FAIL("took a changed config");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::verification_failed);
        CHECK(e.message()
            == "config " + config.digest.text() + " of " + registry.host + "/team/cuda: content is "
                + Digest::of(changed).text() + " (" + std::to_string(changed.size()) + " bytes), expected "
                + config.digest.text() + " (" + std::to_string(k_config.size()) + " bytes)");
    }
}

TEST_CASE("an image config larger than 8 MiB is refused before it is asked for", "[registry]")
{
    oci::Descriptor config = config_descriptor(k_config);
    config.size = (8 << 20) + 1;
    CannedRegistry registry(answers(config, k_config));
    auto session = registry.session();
    CHECK_THROWS_WITH(registry::get_config_blob(session, "team/cuda", config),
        "config " + config.digest.text() + " of " + registry.host
            + "/team/cuda is 8388609 bytes, too large for an image config");
    CHECK(registry.requests().find("/blobs/") == std::string::npos);
}
