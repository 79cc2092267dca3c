#include "core/file.h"
#include "store/verifications.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

using namespace dlenv;

TEST_CASE("every verification record of the store is read, by digest, and nothing else there", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    CHECK(store::read_verifications(store).empty());
    Digest a = Digest::from_hex(std::string(64, 'a')), b = Digest::from_hex(std::string(64, 'b'));
    store::record_verification(store, b, { { "static", true, "2026-11-29T18:00:00Z", { { "tier", "static" } } } });
    store::record_verification(store, a, { { "gpu", false, "2026-11-29T18:04:50Z", { { "tier", "gpu" } } } });
    auto records = store.records_dir() / "verifications";
    write_file_atomic(records / "notes.json", "{}");
    write_file_atomic(records / ("sha256-" + std::string(64, 'Z') + ".json"), "{}");
    std::filesystem::create_directory(records / ("sha256-" + std::string(64, 'c') + ".json"));

    auto all = store::read_verifications(store);
    REQUIRE(all.size() == 2);
    CHECK(all[0].image == a);
    CHECK(all[0].tiers.at("gpu").passed == false);
    CHECK(all[0].tiers.at("gpu").time == "2026-11-29T18:04:50Z");
    CHECK(all[1].image == b);
    CHECK(all[1].tiers.at("static").passed == true);
}
