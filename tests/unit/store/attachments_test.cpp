#include "core/error.h"
#include "core/file.h"
#include "store/attachments.h"
#include "support/refusal.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

const Digest k_image = Digest::from_hex(std::string(64, 'a'));

} // namespace

TEST_CASE("documents attached to an image are kept by its digest, one per kind, the newest replacing", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    CHECK(store::read_attachments(store, k_image).empty());
    store::attach(store, k_image, "sbom", "application/spdx+json", "{\"old\":1}\n", "build");
    store::attach(store, k_image, "lock", "application/vnd.dlenv.lock.v1+json", "{}\n", "build");
    store::Attachment sbom = store::attach(store, k_image, "sbom", "application/spdx+json", "{}\n", "r/team/app");

    auto attached = store::read_attachments(store, k_image);
    REQUIRE(attached.size() == 2);
    CHECK(attached.at("sbom").sha256 == Digest::of("{}\n").hex());
    CHECK(attached.at("sbom").size == 3);
    CHECK(attached.at("sbom").source == "r/team/app");
    CHECK(attached.at("lock").media_type == "application/vnd.dlenv.lock.v1+json");
    CHECK(store::read_attachment(store, sbom) == "{}\n");
    CHECK(read_file(store.records_dir() / "attachments" / ("sha256-" + std::string(64, 'a') + ".json"))
        == "{\n  \"attachments\": {\n    \"lock\": {\n      \"media_type\": \"application/vnd.dlenv.lock.v1+json\",\n"
           "      \"sha256\": \""
            + Digest::of("{}\n").hex()
            + "\",\n      \"size\": 3,\n      \"source\": \"build\"\n"
              "    },\n    \"sbom\": {\n      \"media_type\": \"application/spdx+json\",\n      \"sha256\": \""
            + Digest::of("{}\n").hex()
            + "\",\n      \"size\": 3,\n      \"source\": \"r/team/app\"\n    }\n  },\n"
              "  \"image\": \"sha256:"
            + std::string(64, 'a') + "\",\n  \"schema\": \"dlenv.attachments/v1\"\n}\n");
}

TEST_CASE("an attachment whose artifact went missing, and a record of another image, are refused", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    store::Attachment lock
        = store::attach(store, k_image, "lock", "application/vnd.dlenv.lock.v1+json", "{}\n", "build");
    std::filesystem::path artifact = store.records_dir() / "artifacts" / "sha256" / lock.sha256;
    std::filesystem::remove(artifact);
    CHECK(refusal([&] { store::read_attachment(store, lock); })
        == "verification_failed: the lock artifact " + lock.sha256 + " is missing from the store");

    Digest other = Digest::from_hex(std::string(64, 'b'));
    std::filesystem::path record = store.records_dir() / "attachments";
    std::filesystem::copy_file(
        record / ("sha256-" + k_image.hex() + ".json"), record / ("sha256-" + other.hex() + ".json"));
    CHECK(refusal([&] { store::read_attachments(store, other); })
        == "invalid_input: " + (record / ("sha256-" + other.hex() + ".json")).string()
            + ": expected \"schema\": \"dlenv.attachments/v1\" and \"image\": \"" + other.text() + "\"");
}
