#include "core/error.h"
#include "core/file.h"
#include "oci/media_types.h"
#include "store/gc.h"
#include "store/store.h"
#include "store/tags.h"
#include "store/verifications.h"
#include "support/scratch.h"
#include "support/store_images.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

oci::Descriptor build_and_promote(store::Store& store, const std::string& content)
{
    oci::Descriptor image = add_image(store, content);
    store::Records records = store.records();
    store::record_build(records, "app", image, "sha256:lock", 1700000000);
    store::record_promotion(records, "app", image, 1700000001);
    store.commit(records);
    return image;
}

std::string tag_of(const store::Store& store, const std::string& tag)
{
    auto found = store.find("app", tag);
    return found ? found->digest.short_text() : "(none)";
}

bool present(const Digest&)
{
    return true;
}

} // namespace

TEST_CASE("a promotion moves production and keeps the previous one as production-previous", "[store]")
{
    Scratch scratch;
    store::Store store = store::Store::open_for_writing(scratch.dir());
    oci::Descriptor one = build_and_promote(store, "one");
    CHECK(tag_of(store, "production") == one.digest.short_text());
    CHECK(tag_of(store, "production-previous") == "(none)");
    oci::Descriptor two = build_and_promote(store, "two");
    CHECK(tag_of(store, "production") == two.digest.short_text());
    CHECK(tag_of(store, "production-previous") == one.digest.short_text());

    const store::HistoryEntry& last = store.records().at("app").history.back();
    CHECK(last.action == "promote");
    REQUIRE(last.moved.size() == 2);
    CHECK(last.moved[0].tag == "production-previous");
    CHECK(last.moved[1].tag == "production");
    CHECK(last.moved[1].from == one.digest);
    CHECK(last.moved[1].to == two.digest);

    store::Records records = store.records();
    const store::HistoryEntry& again = store::record_promotion(records, "app", two, 1700000002);
    CHECK(again.moved.empty());
}

TEST_CASE("rollback --production steps production back one promotion at a time", "[store]")
{
    Scratch scratch;
    store::Store store = store::Store::open_for_writing(scratch.dir());
    oci::Descriptor one = build_and_promote(store, "one");
    oci::Descriptor two = build_and_promote(store, "two");
    oci::Descriptor three = build_and_promote(store, "three");

    store::Records records = store.records();
    const store::HistoryEntry& entry = store::roll_back_production(records, "app", 1700000100, present);
    CHECK(entry.action == "rollback-production");
    store.commit(records);
    CHECK(tag_of(store, "production") == two.digest.short_text());
    CHECK(tag_of(store, "production-previous") == one.digest.short_text());
    CHECK(tag_of(store, "latest") == three.digest.short_text());

    records = store.records();
    store::roll_back_production(records, "app", 1700000101, present);
    store.commit(records);
    CHECK(tag_of(store, "production") == one.digest.short_text());
    CHECK(tag_of(store, "production-previous") == "(none)");

    records = store.records();
    try {
        store::roll_back_production(records, "app", 1700000102, present);
        FAIL("a rollback without a previous production succeeded");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::conflict);
        CHECK(e.message() == "app has no production-previous image");
    }
}

TEST_CASE("gc keeps the production and production-previous images", "[store]")
{
    Scratch scratch;
    store::Store store = store::Store::open_for_writing(scratch.dir());
    oci::Descriptor one = build_and_promote(store, "one");
    oci::Descriptor two = build_and_promote(store, "two");
    for (const char* content : { "three", "four" }) {
        store::Records records = store.records();
        store::record_build(records, "app", add_image(store, content), "sha256:lock", 1700000000);
        store.commit(records);
    }
    store::collect_garbage(store, 0);
    CHECK(store.layout().has_blob(one.digest));
    CHECK(store.layout().has_blob(two.digest));
}

TEST_CASE("verification records keep the latest result of each tier, per image digest", "[store]")
{
    Scratch scratch;
    store::Store store = store::Store::open_for_writing(scratch.dir());
    Digest image = Digest::of("image");
    CHECK(store::read_verification(store, image).tiers.empty());

    store::record_verification(store, image, { { "static", false, "2026-01-01T00:00:00Z", { { "n", 1 } } } });
    store::record_verification(store, image, { { "gpu", true, "2026-01-02T00:00:00Z", { { "n", 2 } } } });
    store::record_verification(store, image, { { "static", true, "2026-01-03T00:00:00Z", { { "n", 3 } } } });

    store::Verification record = store::read_verification(store, image);
    REQUIRE(record.tiers.size() == 2);
    CHECK(record.tiers.at("static").passed);
    CHECK(record.tiers.at("static").time == "2026-01-03T00:00:00Z");
    CHECK(record.tiers.at("gpu").report == nlohmann::json { { "n", 2 } });
    CHECK(read_file(scratch.dir() / "dlenv" / "verifications" / ("sha256-" + image.hex() + ".json"))
        == "{\n  \"image\": \"" + image.text()
            + "\",\n  \"schema\": \"dlenv.verification/v1\",\n  \"tiers\": {\n    \"gpu\": {\n      \"passed\": true,\n"
              "      \"report\": {\n        \"n\": 2\n      },\n      \"time\": \"2026-01-02T00:00:00Z\"\n    },\n"
              "    \"static\": {\n      \"passed\": true,\n      \"report\": {\n        \"n\": 3\n      },\n"
              "      \"time\": \"2026-01-03T00:00:00Z\"\n    }\n  }\n}\n");
}

TEST_CASE("a verification record of another schema is refused with what to do", "[store]")
{
    Scratch scratch;
    store::Store store = store::Store::open_for_writing(scratch.dir());
    Digest image = Digest::of("image");
    write_file_atomic(scratch.dir() / "dlenv" / "verifications" / ("sha256-" + image.hex() + ".json"),
        "{\"schema\": \"dlenv.verification/v9\"}");
    try {
        store::read_verification(store, image);
        FAIL("a record of another schema was read");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(e.hint() == "the record was written by another dlenv version; run `dlenv verify` again");
    }
}
