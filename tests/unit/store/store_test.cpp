#include "core/error.h"
#include "core/file.h"
#include "oci/media_types.h"
#include "store/fsck.h"
#include "store/gc.h"
#include "store/layer_cache.h"
#include "store/store.h"
#include "store/tags.h"
#include "support/scratch.h"
#include "support/store_images.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

void roll_back(store::Store& store, const std::string& name)
{
    store::Records records = store.records();
    store::roll_back(records, name, 1700000100, [&](const Digest& d) { return store.layout().has_blob(d); });
    store.commit(records);
}

} // namespace

TEST_CASE("a build moves latest to the new image and the previous latest to rollback", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    oci::Descriptor first = add_build(store, "team/pytorch", "one", 1700000000);
    CHECK(tag_digest(store, "team/pytorch", "latest") == first.digest.text());
    CHECK(tag_digest(store, "team/pytorch", "rollback") == "(none)");

    oci::Descriptor second = add_build(store, "team/pytorch", "two", 1700000060);
    CHECK(tag_digest(store, "team/pytorch", "latest") == second.digest.text());
    CHECK(tag_digest(store, "team/pytorch", "rollback") == first.digest.text());

    const auto& history = store.records().at("team/pytorch").history;
    REQUIRE(history.size() == 2);
    CHECK(history[1].time == "2023-11-14T22:14:20Z");
    CHECK(history[1].lock_digest == "sha256:lock-two");
    REQUIRE(history[1].moved.size() == 2);
    CHECK(history[1].moved[0].tag == "rollback");
    CHECK(history[1].moved[0].to == first.digest);
    CHECK(history[1].moved[1].tag == "latest");
    CHECK(history[1].moved[1].from == first.digest);
}

TEST_CASE("rebuilding the image latest already is moves no tag and keeps the rollback image", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    oci::Descriptor first = add_build(store, "app", "one", 1);
    add_build(store, "app", "two", 2);
    add_build(store, "app", "two", 3);
    CHECK(tag_digest(store, "app", "rollback") == first.digest.text());
    CHECK(store.records().at("app").history.back().moved.empty());
}

TEST_CASE("each rollback steps one image further back until there is none", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    oci::Descriptor a = add_build(store, "app", "a", 1);
    oci::Descriptor b = add_build(store, "app", "b", 2);
    oci::Descriptor c = add_build(store, "app", "c", 3);

    roll_back(store, "app");
    CHECK(tag_digest(store, "app", "latest") == b.digest.text());
    CHECK(tag_digest(store, "app", "rollback") == a.digest.text());
    roll_back(store, "app");
    CHECK(tag_digest(store, "app", "latest") == a.digest.text());
    CHECK(tag_digest(store, "app", "rollback") == "(none)");
    try {
        roll_back(store, "app");
        FAIL("a third rollback succeeded");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::conflict);
        CHECK(e.message() == "app has no rollback image");
    }
    (void)c;
}

TEST_CASE("a rollback after rebuilding an image that was rolled back still steps back, never forward", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    oci::Descriptor a = add_build(store, "app", "a", 1);
    oci::Descriptor b = add_build(store, "app", "b", 2);
    roll_back(store, "app");
    add_build(store, "app", "b", 3);
    roll_back(store, "app");
    CHECK(tag_digest(store, "app", "latest") == a.digest.text());
    CHECK(tag_digest(store, "app", "rollback") == "(none)");
    (void)b;
}

TEST_CASE("rolling back an unknown name suggests the known ones", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    add_build(store, "pytorch", "a", 1);
    try {
        roll_back(store, "pytorc");
        FAIL("rollback of an unknown name succeeded");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::not_found);
        CHECK(e.message() == "no image named \"pytorc\" in the store");
        CHECK(e.hint() == "did you mean pytorch?");
    }
}

TEST_CASE("index.json shows every tag as NAME:TAG and keeps what other tools put there", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    oci::Descriptor foreign = add_image(store, "foreign");
    foreign.annotations["org.opencontainers.image.ref.name"] = "copied-by-skopeo";
    store.layout().write_index(oci::Index { { foreign }, {} });
    add_build(store, "app", "a", 1);
    add_build(store, "app", "b", 2);

    std::vector<std::string> refs;
    for (const auto& d : store.layout().read_index().manifests)
        refs.push_back(d.annotations.at("org.opencontainers.image.ref.name"));
    CHECK(refs == std::vector<std::string> { "app:latest", "app:rollback", "copied-by-skopeo" });
    CHECK(store.index_matches_records());
}

TEST_CASE("a writer repairs an index.json that lags the records", "[store]")
{
    Scratch dir;
    {
        store::Store store = store::Store::open_for_writing(dir.dir());
        add_build(store, "app", "a", 1);
        store.layout().write_index(oci::Index {}); // as if killed between the two writes
        CHECK_FALSE(store.index_matches_records());
        CHECK(store::check_store(store).notes.size() == 1);
    }
    store::Store reopened = store::Store::open_for_writing(dir.dir());
    CHECK(reopened.index_matches_records());
}

TEST_CASE("records of an unknown format are refused with what to do", "[store]")
{
    Scratch dir;
    write_file_atomic(dir / "dlenv/refs.json", R"({"format": "dlenv.store/v9", "images": {}})");
    write_file_atomic(dir / "oci-layout", R"({"imageLayoutVersion":"1.0.0"})");
    try {
        store::Store::open(dir.dir());
        FAIL("an unknown format was read");
    } catch (const Error& e) {
        CHECK(e.message() == (dir / "dlenv/refs.json").string() + ": format must be \"dlenv.store/v1\"");
    }
}

TEST_CASE("records that do not parse are refused naming the file and the field", "[store]")
{
    const std::string tag = R"({"mediaType": "application/vnd.oci.image.manifest.v1+json", "size": 2, "digest": )";
    auto [images, problem] = GENERATE_COPY(table<std::string, std::string>({
        { R"({"app": {"tags": )",
            ":1:57: not valid JSON: syntax error while parsing value - unexpected end of "
            "input; expected '[', '{', or a literal" },
        { R"({"app": {"tags": {"latest": )" + tag + R"("sha256:abc"}}, "history": []}}})",
            R"( app:latest: "digest": not a sha256 digest: "abc")" },
        { R"({"app": {"tags": {}, "history": [{"time": "t", "action": "build", "lock_digest": "l", "image": )" + tag
                + R"("sha256:)" + std::string(64, 'a')
                + R"("}, "moved": [{"tag": "latest", "from": "md5:1", "to": null}]}]}}})",
            R"( history of app: not a sha256 digest: "md5:1")" },
    }));
    Scratch dir;
    std::filesystem::path file = dir / "dlenv/refs.json";
    write_file_atomic(file, R"({"format": "dlenv.store/v1", "images": )" + images);
    write_file_atomic(dir / "oci-layout", R"({"imageLayoutVersion":"1.0.0"})");
    try {
        store::Store::open(dir.dir());
        FAIL("damaged records were read");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(std::string(e.what()) == file.string() + problem);
    }
}

TEST_CASE("gc keeps what tags and the last N history entries reference and removes the rest", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    oci::Descriptor a = add_build(store, "app", "a", 1);
    oci::Descriptor b = add_build(store, "app", "b", 2);
    oci::Descriptor c = add_build(store, "app", "c", 3);
    store.layout().write_blob("stray", "application/octet-stream");

    store::GcReport report = store::collect_garbage(store, 1);
    // b (rollback) and c (latest, last history entry): 3 blobs each; a and the stray go.
    CHECK(report.kept_blobs == 6);
    CHECK(report.removed_blobs == 4);
    CHECK_FALSE(store.layout().has_blob(a.digest));
    CHECK(store.layout().has_blob(b.digest));
    CHECK(store.layout().has_blob(c.digest));
    CHECK(store::check_store(store).ok());
}

TEST_CASE("fsck names a missing and a damaged blob, and passes on a sound store", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    add_build(store, "app", "good", 1);
    CHECK(store::check_store(store).ok());
    CHECK(store::check_store(store).checked_blobs == 3);

    oci::Descriptor layer = store.layout().write_blob("good", oci::media_type::k_layer_tar);
    std::filesystem::path path = store.layout().blob_path(layer.digest);
    std::filesystem::permissions(path, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
    write_file_atomic(path, "evil");
    store::FsckReport damaged = store::check_store(store);
    REQUIRE(damaged.problems.size() == 1); // each blob is reported once, under the first tag that reaches it
    CHECK_THAT(damaged.problems[0], Catch::StartsWith("app:latest: manifest sha256:"));
    CHECK_THAT(damaged.problems[0], Catch::EndsWith(" does not match its digest"));

    std::filesystem::remove(path);
    store::FsckReport missing = store::check_store(store);
    REQUIRE_FALSE(missing.ok());
    CHECK_THAT(missing.problems[0], Catch::EndsWith(": missing blob " + layer.digest.text()));
}

TEST_CASE("the layer cache answers only while the layer's blob is stored", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    oci::Descriptor layer = store.layout().write_blob("layer", oci::media_type::k_layer_tar);
    store::remember_layer(store, "key1", { layer, Digest::of("layer") });
    REQUIRE(store::find_cached_layer(store, "key1"));
    CHECK(store::find_cached_layer(store, "key1")->descriptor.digest == layer.digest);
    CHECK_FALSE(store::find_cached_layer(store, "key2"));
    std::filesystem::remove(store.layout().blob_path(layer.digest));
    CHECK_FALSE(store::find_cached_layer(store, "key1"));
    CHECK(store::forget_missing_layers(store) == 1);
}

TEST_CASE("image names follow the registry grammar", "[store]")
{
    for (std::string good : { "app", "team/pytorch-2.1", "a.b_c__d", "x/y/z" })
        CHECK_NOTHROW(store::check_image_name(good));
    for (std::string bad : { "", "App", "-app", "app-", "a//b", "a:b", "/a" })
        CHECK_THROWS_AS(store::check_image_name(bad), Error);
}
