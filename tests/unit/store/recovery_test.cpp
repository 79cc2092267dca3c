#include "core/error.h"
#include "core/file.h"
#include "store/fsck.h"
#include "store/gc.h"
#include "store/store.h"
#include "store/tags.h"
#include "support/scratch.h"
#include "support/store_images.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <utility>

using namespace dlenv;

namespace {

void promote(store::Store& store, const oci::Descriptor& image)
{
    store::Records records = store.records();
    store::record_promotion(records, "app", image, 1700000050);
    store.commit(records);
}

struct Built {
    oci::Descriptor a, b;
};

// app:rollback = a, app:latest = app:production = b.
Built build_and_promote(const Scratch& dir)
{
    store::Store store = store::Store::open_for_writing(dir.dir());
    Built built { add_build(store, "app", "a", 1), add_build(store, "app", "b", 2) };
    promote(store, built.b);
    return built;
}

// index.json's entries as "REF DIGEST".
std::vector<std::string> index_entries(const store::Store& store)
{
    std::vector<std::string> out;
    for (const auto& entry : store.layout().read_index().manifests)
        out.push_back(entry.annotations.at(oci::k_ref_name_annotation) + " " + entry.digest.short_text());
    return out;
}

void edit_records(const Scratch& dir, const std::function<void(nlohmann::json&)>& edit)
{
    nlohmann::json json = nlohmann::json::parse(read_file(dir / "dlenv/refs.json"));
    edit(json);
    write_file_atomic(dir / "dlenv/refs.json", json.dump());
}

} // namespace

TEST_CASE("a store whose refs.json is missing takes its tags back from index.json, and fsck says so", "[store]")
{
    Scratch dir;
    Built built = build_and_promote(dir);
    std::filesystem::remove(dir / "dlenv/refs.json");

    store::Store store = store::Store::open(dir.dir());
    CHECK(tag_digest(store, "app", "latest") == built.b.digest.text());
    CHECK(tag_digest(store, "app", "production") == built.b.digest.text());
    CHECK(tag_digest(store, "app", "rollback") == built.a.digest.text());
    store::FsckReport report = store::check_store(store);
    CHECK(report.problems
        == std::vector<std::string> { "dlenv/refs.json is missing (its history is lost): took app:latest, "
                                      "app:production, app:rollback back from index.json; the next build, "
                                      "promote, rollback or gc records them" });
    CHECK_FALSE(std::filesystem::exists(dir / "dlenv/refs.json")); // a reader writes nothing
}

TEST_CASE("a writer records the tags it took back, each with a recover entry in the history", "[store]")
{
    Scratch dir;
    Built built = build_and_promote(dir);
    std::filesystem::remove(dir / "dlenv/refs.json");
    store::Store::open_for_writing(dir.dir());

    store::Store store = store::Store::open(dir.dir());
    CHECK(store::check_store(store).ok());
    const auto& history = store.records().at("app").history;
    REQUIRE(history.size() == 3);
    for (const auto& [entry, tag, image] : { std::tuple { history[0], "latest", built.b },
             std::tuple { history[1], "production", built.b }, std::tuple { history[2], "rollback", built.a } }) {
        CHECK(entry.action == "recover");
        CHECK(entry.image.digest == image.digest);
        REQUIRE(entry.moved.size() == 1);
        CHECK(entry.moved[0].tag == tag);
        CHECK(entry.moved[0].from == std::nullopt);
        CHECK(entry.moved[0].to == image.digest);
    }
}

TEST_CASE("a build after refs.json went missing keeps the tags index.json listed, and gc their blobs", "[store]")
{
    Scratch dir;
    Built built = build_and_promote(dir);
    std::filesystem::remove(dir / "dlenv/refs.json");

    store::Store store = store::Store::open_for_writing(dir.dir());
    oci::Descriptor c = add_build(store, "app", "c", 3);
    CHECK(index_entries(store)
        == std::vector<std::string> { "app:latest " + c.digest.short_text(),
            "app:production " + built.b.digest.short_text(), "app:rollback " + built.b.digest.short_text() });
    store::collect_garbage(store, 0);
    CHECK(store.layout().has_blob(built.b.digest));
    CHECK(store.layout().has_blob(c.digest));
    CHECK_FALSE(store.layout().has_blob(built.a.digest)); // no tag names it any more
    CHECK(store::check_store(store).problems == std::vector<std::string> {});
}

TEST_CASE("an image whose tags refs.json lost takes them back from index.json, keeping its history", "[store]")
{
    Scratch dir;
    Built built = build_and_promote(dir);
    edit_records(dir, [](nlohmann::json& json) { json["images"]["app"]["tags"] = nlohmann::json::object(); });

    store::Store store = store::Store::open(dir.dir());
    CHECK(tag_digest(store, "app", "production") == built.b.digest.text());
    CHECK(store.records().at("app").history.size() == 6); // two builds, a promotion, three taken back
    CHECK(store::check_store(store).problems
        == std::vector<std::string> { "dlenv/refs.json lacks tags index.json lists: took app:latest, "
                                      "app:production, app:rollback back from index.json; the next build, "
                                      "promote, rollback or gc records them" });
}

TEST_CASE("a tag the records removed stays removed while a lagging index.json still lists it", "[store]")
{
    Scratch dir;
    std::string a;
    {
        store::Store store = store::Store::open_for_writing(dir.dir());
        a = add_build(store, "app", "a", 1).digest.text();
        add_build(store, "app", "b", 2);
        oci::Index before = store.layout().read_index(); // app:rollback = a
        store::Records records = store.records();
        store::roll_back(records, "app", 3, [](const Digest&) { return true; });
        store.commit(records);
        store.layout().write_index(before); // as if killed between refs.json and index.json
    }
    store::Store reader = store::Store::open(dir.dir());
    CHECK(tag_digest(reader, "app", "latest") == a);
    CHECK(tag_digest(reader, "app", "rollback") == "(none)");
    CHECK(store::check_store(reader).ok());
}

TEST_CASE("entries other tools named NAME:TAG stay theirs while refs.json exists", "[store]")
{
    Scratch dir;
    {
        store::Store store = store::Store::open_for_writing(dir.dir());
        add_build(store, "app", "a", 1);
        oci::Index index = store.layout().read_index();
        oci::Descriptor foreign = add_image(store, "foreign");
        foreign.annotations[oci::k_ref_name_annotation] = "other:v1";
        index.manifests.push_back(foreign);
        store.layout().write_index(index);
    }
    store::Store store = store::Store::open_for_writing(dir.dir());
    CHECK(store.records().images.count("other") == 0);
    CHECK(index_entries(store).size() == 2);
    CHECK(store::check_store(store).ok());
}

TEST_CASE("without refs.json, a damaged index.json is refused rather than rewritten", "[store]")
{
    Scratch dir;
    build_and_promote(dir);
    std::filesystem::remove(dir / "dlenv/refs.json");
    write_file_atomic(dir / "index.json", "{\"manifests\": [");
    try {
        store::Store::open_for_writing(dir.dir());
        FAIL("a store without records or index was opened");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK_THAT(e.message(), Catch::StartsWith((dir / "index.json").string() + ":1:16: not valid JSON: "));
        CHECK(e.hint()
            == "dlenv/refs.json is missing too, so nothing else says which images the store holds: restore "
               "index.json or dlenv/refs.json from a backup");
    }
    CHECK(read_file(dir / "index.json") == "{\"manifests\": [");
}

TEST_CASE("refs.json whose tags are not an object is refused, naming the field and the fix", "[store]")
{
    Scratch dir;
    build_and_promote(dir);
    edit_records(dir, [](nlohmann::json& json) { json["images"]["app"]["tags"] = nlohmann::json::array(); });
    try {
        store::Store::open(dir.dir());
        FAIL("tags that are not an object were read");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(e.message() == (dir / "dlenv/refs.json").string() + ": images.app.tags must be an object");
        CHECK(e.hint()
            == "the store's records are damaged: repair dlenv/refs.json, or move it aside and dlenv takes the tags "
               "back from index.json (without their history)");
    }
}

TEST_CASE("refs.json that is not JSON is refused with the way to take the tags back", "[store]")
{
    Scratch dir;
    build_and_promote(dir);
    write_file_atomic(dir / "dlenv/refs.json", "{\"format\": ");
    try {
        store::Store::open_for_writing(dir.dir());
        FAIL("damaged records were read");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK_THAT(e.message(), Catch::StartsWith((dir / "dlenv/refs.json").string() + ":1:12: not valid JSON: "));
        CHECK(e.hint()
            == "the store's records are damaged: repair dlenv/refs.json, or move it aside and dlenv takes the tags "
               "back from index.json (without their history)");
    }
    CHECK(read_file(dir / "dlenv/refs.json") == "{\"format\": ");
}
