#include "core/error.h"
#include "store/records.h"
#include "store/tags.h"

#include <catch2/catch.hpp>

using namespace dlenv;

TEST_CASE("NAME[:TAG] splits at the last colon after the last slash", "[store]")
{
    auto plain = store::ImageTag::parse("quickstart");
    CHECK(plain.name == "quickstart");
    CHECK(plain.tag == "latest");
    auto tagged = store::ImageTag::parse("team/app:v1");
    CHECK(tagged.name == "team/app");
    CHECK(tagged.tag == "v1");
    auto ported = store::ImageTag::parse("localhost:5000/team/app");
    CHECK(ported.name == "localhost:5000/team/app");
    CHECK(ported.tag == "latest");
    CHECK(store::ImageTag::parse("127.0.0.1:5000/app:rc1").tag == "rc1");
}

TEST_CASE("image names may start with the registry host and port they came from", "[store]")
{
    CHECK_NOTHROW(store::check_image_name("localhost:5000/team/app"));
    CHECK_NOTHROW(store::check_image_name("127.0.0.1:5000/app"));
    CHECK_NOTHROW(store::check_image_name("nvcr.io/nvidia/pytorch"));
    CHECK_THROWS_AS(store::check_image_name("localhost:5000"), Error);
    CHECK_THROWS_AS(store::check_image_name("host:port/app"), Error);
    CHECK_THROWS_AS(store::check_image_name("team/app:v1"), Error);
}

TEST_CASE("a pull moves only its own tag and says so in the history", "[store]")
{
    store::Records records;
    oci::Descriptor first { "application/vnd.oci.image.manifest.v1+json", Digest::from_hex(std::string(64, 'a')), 10,
        {}, std::nullopt };
    oci::Descriptor second = first;
    second.digest = Digest::from_hex(std::string(64, 'b'));
    store::record_pull(records, "nvidia/cuda", "12.2", first, 0);
    const store::HistoryEntry& moved = store::record_pull(records, "nvidia/cuda", "12.2", second, 60);
    CHECK(moved.action == "pull");
    REQUIRE(moved.moved.size() == 1);
    CHECK(moved.moved[0].tag == "12.2");
    CHECK(moved.moved[0].from == first.digest);
    CHECK(moved.moved[0].to == second.digest);
    CHECK(store::record_pull(records, "nvidia/cuda", "12.2", second, 120).moved.empty());
    const store::ImageRecord& record = records.at("nvidia/cuda");
    CHECK(record.tags.size() == 1);
    CHECK(record.history.size() == 3);
    CHECK(record.tags.at("12.2").digest == second.digest);
}
