#include "core/error.h"
#include "oci/media_types.h"
#include "registry/manifests.h"
#include "registry/referrers.h"
#include "support/local_registry.h"
#include "support/refusal.h"
#include "unit/registry/canned_registry.h"

#include <catch2/catch.hpp>

using namespace dlenv;
using nlohmann::json;

namespace {

const std::string k_report_type = "application/vnd.dlenv.verification.v1+json";

oci::Descriptor manifest_descriptor(const std::string& bytes)
{
    return { std::string(oci::media_type::k_manifest), Digest::of(bytes), static_cast<std::int64_t>(bytes.size()), {},
        std::nullopt };
}

registry::Session plain_session(const std::string& host)
{
    registry::RegistryOptions options;
    options.insecure = true;
    return registry::Session(host, host, options, std::nullopt);
}

// An image in team/app of the registry: a config of 2 bytes and no layers.
oci::Descriptor push_subject(registry::Session& session)
{
    std::string bytes = R"({"config":{"digest":")" + Digest::of("{}").text()
        + R"(","mediaType":"application/vnd.oci.image.config.v1+json","size":2},"layers":[],"mediaType":")"
        + std::string(oci::media_type::k_manifest) + R"(","schemaVersion":2})";
    oci::Descriptor subject = manifest_descriptor(bytes);
    // An artifact of something else uploads the blob "{}" the image's config is.
    registry::push_artifact(session, "team/app", manifest_descriptor("elsewhere"),
        { "application/vnd.example+json", "{}", {} }, registry::ReferrersApi::api);
    registry::put_manifest(session, "team/app", subject.digest.text(), subject, bytes);
    return subject;
}

} // namespace

TEST_CASE("an artifact manifest has the empty config, one layer and the image as its subject", "[registry]")
{
    oci::Descriptor subject = manifest_descriptor("{}");
    std::string bytes = registry::artifact_manifest(
        { k_report_type, "{\"tier\":\"static\"}", { { "dev.dlenv.image.digest", subject.digest.text() } } }, subject);
    CHECK(bytes
        == R"({"annotations":{"dev.dlenv.image.digest":")" + subject.digest.text() + R"("},"artifactType":")"
            + k_report_type
            + R"(","config":{"digest":"sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a","mediaType":"application/vnd.oci.empty.v1+json","size":2},"layers":[{"digest":")"
            + Digest::of("{\"tier\":\"static\"}").text() + R"(","mediaType":")" + k_report_type
            + R"(","size":17}],"mediaType":"application/vnd.oci.image.manifest.v1+json","schemaVersion":2,"subject":{"digest":")"
            + subject.digest.text() + R"(","mediaType":"application/vnd.oci.image.manifest.v1+json","size":2}})");
}

TEST_CASE("a registry with the referrers API lists referrers page by page and keeps no tag index", "[registry]")
{
    Digest subject = Digest::of("image");
    std::string path = "/v2/team/app/referrers/" + subject.text();
    json first = { { "schemaVersion", 2 }, { "mediaType", oci::media_type::k_index },
        { "manifests",
            { { { "mediaType", oci::media_type::k_manifest }, { "digest", Digest::of("a").text() }, { "size", 1 },
                { "artifactType", k_report_type } } } } };
    json second = first;
    second["manifests"][0]["digest"] = Digest::of("b").text();
    second["manifests"][0]["artifactType"] = "application/spdx+json";
    CannedRegistry registry({ { "GET /v2/", { { "status", 200 } } },
        { "GET " + path,
            { { "status", 200 }, { "headers", { { "Link", "<" + path + "/2>; rel=\"next\"" } } },
                { "body", first.dump() } } },
        { "GET " + path + "/2", { { "status", 200 }, { "body", second.dump() } } } });
    auto session = registry.session();
    CHECK(registry::referrers_api(session, "team/app", subject) == registry::ReferrersApi::api);
    auto referrers = registry::list_referrers(session, "team/app", subject);
    REQUIRE(referrers.size() == 2);
    CHECK(referrers[0].artifact_type == k_report_type);
    CHECK(referrers[1].manifest.digest == Digest::of("b"));
    CHECK(registry.requests().find("manifests/sha256-") == std::string::npos);
}

TEST_CASE("without the referrers API, the sha256-<hex> index lists each artifact once and keeps others' entries",
    "[registry]")
{
    dlenv::testing::LocalRegistry local;
    registry::Session session = plain_session(local.host);
    oci::Descriptor subject = push_subject(session);
    CHECK(registry::referrers_api(session, "team/app", subject.digest) == registry::ReferrersApi::tag_schema);
    CHECK(registry::list_referrers(session, "team/app", subject.digest).empty());

    registry::Artifact report { k_report_type, "{\"tier\":\"static\"}",
        { { "dev.dlenv.verification.tier", "static" } } };
    oci::Descriptor pushed
        = registry::push_artifact(session, "team/app", subject, report, registry::ReferrersApi::tag_schema);
    registry::push_artifact(session, "team/app", subject, report, registry::ReferrersApi::tag_schema);
    registry::push_artifact(
        session, "team/app", subject, { "application/spdx+json", "{}", {} }, registry::ReferrersApi::tag_schema);
    auto referrers = registry::list_referrers(session, "team/app", subject.digest);
    REQUIRE(referrers.size() == 2);
    CHECK(referrers[0].manifest.digest == pushed.digest);
    CHECK(referrers[0].manifest.annotations.at("dev.dlenv.verification.tier") == "static");
    CHECK(referrers[1].artifact_type == "application/spdx+json");

    registry::FetchedArtifact fetched = registry::fetch_artifact(session, "team/app", referrers[0], subject.digest);
    CHECK(fetched.bytes == "{\"tier\":\"static\"}");
    CHECK(fetched.artifact_type == k_report_type);
    CHECK(fetched.annotations.at("dev.dlenv.verification.tier") == "static");
    CHECK(refusal([&] { registry::fetch_artifact(session, "team/app", referrers[0], Digest::of("other")); })
        == "invalid_input: artifact " + pushed.digest.text() + " in " + local.host + "/team/app does not name "
            + Digest::of("other").text() + " as its subject");
}
