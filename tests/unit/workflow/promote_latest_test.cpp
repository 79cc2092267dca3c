#include "core/error.h"
#include "store/store.h"
#include "store/verifications.h"
#include "support/scratch.h"
#include "support/scratch_build.h"
#include "support/store_images.h"
#include "workflow/promote_latest.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

workflow::PromoteRequest promote_request(const Scratch& scratch)
{
    workflow::PromoteRequest request;
    request.name = "app";
    request.store_dir = scratch / "store";
    request.clock = [] { return std::int64_t(1700000100); };
    return request;
}

// `passed` for each of static and gpu, recorded for `image`.
void record_tiers(const Scratch& scratch, const Digest& image, bool static_passed, bool gpu_passed)
{
    store::Store store = store::Store::open_for_writing(scratch / "store");
    store::record_verification(store, image,
        { { "static", static_passed, "2026-01-01T00:00:00Z", {} }, { "gpu", gpu_passed, "2026-01-02T00:00:00Z", {} } });
}

std::string refusal(const workflow::PromoteRequest& request)
{
    try {
        workflow::promote_latest(request);
    } catch (const Error& e) {
        return std::string(to_string(e.code())) + ": " + e.message() + " | " + e.hint();
    }
    return "promoted";
}

const std::string k_hint = "its lock requires passing verifications of the tiers static, gpu "
                           "(the profile's \"validation\": {\"tiers\": [...]})";

} // namespace

TEST_CASE("promote_latest refuses an image without a pass of each required tier, naming each", "[workflow]")
{
    Scratch scratch;
    image::BuildResult built = build_scratch_image(scratch, scratch_lock(scratch, { "static", "gpu" }));
    std::string image = built.manifest.digest.short_text();
    CHECK(refusal(promote_request(scratch))
        == "verification_failed: app:latest cannot be promoted: no passing `static` verification for " + image
            + " (run `dlenv verify app --tier static`); no passing `gpu` verification for " + image
            + " (run `dlenv verify app --tier gpu` on a GPU machine) | " + k_hint);

    record_tiers(scratch, built.manifest.digest, true, false);
    CHECK(refusal(promote_request(scratch))
        == "verification_failed: app:latest cannot be promoted: the `gpu` verification of " + image
            + " failed at 2026-01-02T00:00:00Z (fix the image, build it and run `dlenv verify app --tier gpu` on a "
              "GPU machine) | "
            + k_hint);

    store::Store store = store::Store::open(scratch / "store");
    CHECK(tag_digest(store, "app", "production") == "(none)");
    CHECK(store.records().at("app").history.size() == 1);
}

TEST_CASE("promote_latest moves production to latest once every required tier passed", "[workflow]")
{
    Scratch scratch;
    image::BuildResult built = build_scratch_image(scratch, scratch_lock(scratch, { "static", "gpu" }));
    record_tiers(scratch, built.manifest.digest, true, true);

    store::HistoryEntry entry = workflow::promote_latest(promote_request(scratch));
    CHECK(entry.action == "promote");
    CHECK(entry.time == "2023-11-14T22:15:00Z");
    CHECK(entry.image.digest == built.manifest.digest);
    REQUIRE(entry.moved.size() == 1);
    CHECK(entry.moved[0].tag == "production");
    CHECK_FALSE(entry.moved[0].from);
    CHECK(entry.moved[0].to == built.manifest.digest);
    CHECK(tag_digest(store::Store::open(scratch / "store"), "app", "production") == built.manifest.digest.text());
}
