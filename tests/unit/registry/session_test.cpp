#include "core/error.h"
#include "registry/manifests.h"
#include "support/closed_port.h"
#include "unit/registry/canned_registry.h"

#include <catch2/catch.hpp>

using namespace dlenv;
using namespace std::chrono_literals;
using dlenv::testing::closed_port;

TEST_CASE("a registry that refuses connections is given up at once, with exit-3 advice", "[registry]")
{
    for (bool insecure : { false, true }) {
        INFO("insecure: " << insecure);
        std::string host = "127.0.0.1:" + std::to_string(closed_port());
        registry::RegistryOptions options; // the default retry policy
        options.insecure = insecure;
        registry::Session session(host, host, options, std::nullopt);
        auto start = std::chrono::steady_clock::now();
        try {
            registry::get_manifest(session, "team/app", "v1");
            FAIL("no error");
        } catch (const Error& e) {
            CHECK(e.code() == ErrorCode::network);
            CHECK(std::string(e.what())
                == "reach registry " + host + ": GET https://" + host + "/v2/: connection refused");
            CHECK(e.hint()
                == "nothing accepts connections at " + host
                    + ": check that the registry is running and that the image reference names its "
                      "host and port");
        }
        CHECK(std::chrono::steady_clock::now() - start < 1s);
    }
}

TEST_CASE("a registry that failed its version check is not asked again by later requests", "[registry]")
{
    CannedRegistry registry(nlohmann::json { { "GET /v2/", { { "status", 503 } } } });
    auto session = registry.session();
    for (int i = 0; i < 3; ++i)
        CHECK_THROWS_WITH(registry::get_manifest(session, "team/app", "v1"),
            registry.host + " does not answer as an OCI registry at http://" + registry.host
                + "/v2/: the registry answered 503");
    CHECK(registry.requests() == "GET /v2/\nGET /v2/\n");
}
