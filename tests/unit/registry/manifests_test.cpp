#include "core/digest.h"
#include "core/error.h"
#include "registry/manifests.h"
#include "unit/registry/canned_registry.h"

#include <catch2/catch.hpp>

using namespace dlenv;
using nlohmann::json;

namespace {

const std::string k_type = "application/vnd.oci.image.manifest.v1+json";
const std::string k_manifest = json {
    { "schemaVersion", 2 },
    { "mediaType", k_type },
    { "config",
        { { "mediaType", "application/vnd.oci.image.config.v1+json" }, { "digest", "sha256:" + std::string(64, 'c') },
            { "size", 2 } } },
    { "layers", json::array() },
    { "annotations", { { "org.opencontainers.image.created", "1970-01-01T00:00:00Z" } } },
}.dump();

// A registry whose tag v1 and digest `digest_path` both answer `body`, naming `named` as
// its Docker-Content-Digest when that is not empty.
json answers(const std::string& body, const std::string& named, const std::string& digest_path)
{
    json headers = { { "Content-Type", k_type } };
    if (!named.empty())
        headers["Docker-Content-Digest"] = named;
    json manifest = { { "status", 200 }, { "headers", headers }, { "body", body } };
    return { { "GET /v2/", { { "status", 200 } } }, { "GET /v2/team/app/manifests/v1", manifest },
        { "GET /v2/team/app/manifests/" + digest_path, manifest } };
}

ErrorCode code_of(const std::function<void()>& call)
{
    try {
        call();
    } catch (const Error& e) {
        return e.code();
    }
    FAIL("no error");
    return ErrorCode::io;
}

} // namespace

TEST_CASE("a manifest pulled by tag whose bytes are not the Docker-Content-Digest is refused", "[registry]")
{
    std::string changed = k_manifest;
    changed.replace(changed.find("1970"), 1, "0"); // one bit flipped in transit
    Digest sent = Digest::of(k_manifest);
    CannedRegistry registry(answers(changed, sent.text(), sent.text()));
    auto session = registry.session();

    std::string what = registry.host + "/team/app manifest v1: the registry sent bytes whose digest is "
        + Digest::of(changed).text() + ", but its Docker-Content-Digest says " + sent.text();
    CHECK_THROWS_WITH(registry::get_manifest(session, "team/app", "v1"), what);
    CHECK(code_of([&] { registry::get_manifest(session, "team/app", "v1"); }) == ErrorCode::verification_failed);
    CHECK_THROWS_WITH(registry::get_manifest(session, "team/app", sent.text()),
        registry.host + "/team/app manifest " + sent.text() + ": the registry sent bytes whose digest is "
            + Digest::of(changed).text());
}

TEST_CASE("a Docker-Content-Digest that is no digest is refused, naming no header text", "[registry]")
{
    Digest digest = Digest::of(k_manifest);
    CannedRegistry registry(answers(k_manifest, "sha256:\x1b[2Jnot-a-digest", digest.text()));
    auto session = registry.session();
    CHECK_THROWS_WITH(registry::get_manifest(session, "team/app", "v1"),
        registry.host + "/team/app manifest v1: the registry sent bytes whose digest is " + digest.text()
            + ", but its Docker-Content-Digest is not a sha256 digest");
}

TEST_CASE("a manifest pulled by tag is taken when its digest matches the header, or the header is absent", "[registry]")
{
    Digest digest = Digest::of(k_manifest);
    for (const std::string& named : { digest.text(), std::string() }) {
        INFO(named);
        CannedRegistry registry(answers(k_manifest, named, digest.text()));
        auto session = registry.session();
        registry::FetchedManifest fetched = registry::get_manifest(session, "team/app", "v1");
        CHECK(fetched.digest == digest);
        CHECK(fetched.bytes == k_manifest);
        CHECK(fetched.media_type == k_type);
    }
}
