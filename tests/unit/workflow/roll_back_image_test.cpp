#include "core/error.h"
#include "store/store.h"
#include "store/tags.h"
#include "support/scratch.h"
#include "support/store_images.h"
#include "workflow/roll_back_image.h"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace dlenv;

namespace {

workflow::RollbackRequest rollback_request(const Scratch& scratch, bool production)
{
    workflow::RollbackRequest request;
    request.name = "app";
    request.production = production;
    request.store_dir = scratch / "store";
    request.clock = [] { return std::int64_t(1700000100); };
    return request;
}

struct Builds {
    oci::Descriptor one;
    oci::Descriptor two;
};

// Two builds of `app`, "one" then "two", each promoted when `promoted`, in the store at
// DIR/store, which is closed again (its writer lock released) on return.
Builds two_builds(const Scratch& scratch, bool promoted)
{
    store::Store store = store::Store::open_for_writing(scratch / "store");
    Builds builds { add_build(store, "app", "one", 1700000000), add_build(store, "app", "two", 1700000060) };
    if (promoted) {
        store::Records records = store.records();
        store::record_promotion(records, "app", builds.one, 1700000001);
        store::record_promotion(records, "app", builds.two, 1700000061);
        store.commit(records);
    }
    return builds;
}

} // namespace

TEST_CASE("roll_back_image moves latest back to the rollback image", "[workflow]")
{
    Scratch scratch;
    auto [one, two] = two_builds(scratch, false);
    store::HistoryEntry entry = workflow::roll_back_image(rollback_request(scratch, false));
    CHECK(entry.action == "rollback");
    CHECK(entry.time == "2023-11-14T22:15:00Z");
    CHECK(entry.image.digest == one.digest);
    store::Store store = store::Store::open(scratch / "store");
    CHECK(tag_digest(store, "app", "latest") == one.digest.text());
    CHECK(tag_digest(store, "app", "rollback") == "(none)");
    CHECK(store.records().at("app").history.size() == 3);
}

TEST_CASE("roll_back_image --production moves production back to production-previous", "[workflow]")
{
    Scratch scratch;
    auto [one, two] = two_builds(scratch, true);
    store::HistoryEntry entry = workflow::roll_back_image(rollback_request(scratch, true));
    CHECK(entry.action == "rollback-production");
    CHECK(entry.image.digest == one.digest);
    store::Store store = store::Store::open(scratch / "store");
    CHECK(tag_digest(store, "app", "production") == one.digest.text());
    CHECK(tag_digest(store, "app", "production-previous") == "(none)");
    CHECK(tag_digest(store, "app", "latest") == two.digest.text());
}

TEST_CASE("roll_back_image refuses to go back to an image the store lost, and records nothing", "[workflow]")
{
    Scratch scratch;
    auto [one, two] = two_builds(scratch, false);
    std::filesystem::remove(scratch / "store" / "blobs" / "sha256" / one.digest.hex());
    try {
        workflow::roll_back_image(rollback_request(scratch, false));
        FAIL("latest went back to a missing image");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::not_found);
        CHECK(e.message()
            == "the image " + one.digest.text() + " that app:latest would go back to is no longer in the store");
        CHECK(e.hint() == "`dlenv fsck` says what is damaged; build the image again");
    }
    store::Store store = store::Store::open(scratch / "store");
    CHECK(tag_digest(store, "app", "latest") == two.digest.text());
    CHECK(tag_digest(store, "app", "rollback") == one.digest.text());
    CHECK(store.records().at("app").history.size() == 2);
}
