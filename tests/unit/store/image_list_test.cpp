#include "core/error.h"
#include "store/image_list.h"
#include "store/store.h"
#include "support/scratch.h"
#include "support/store_images.h"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace dlenv;

TEST_CASE("the image list has every tag by name then tag, each with its first record and stored bytes", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    oci::Descriptor one = add_build(store, "app", "one", 1700000000);
    oci::Descriptor two = add_build(store, "app", "two", 1700000060);
    add_build(store, "app", "one", 1700000120);
    oci::Descriptor base = add_build(store, "base", "base", 1700000180);

    std::vector<store::ListedImage> images = store::list_images(store);
    REQUIRE(images.size() == 3);
    CHECK(images[0].name == "app");
    CHECK(images[0].tag == "latest");
    CHECK(images[0].manifest.digest == one.digest);
    CHECK(images[0].created == "2023-11-14T22:13:20Z");
    // The manifest, the config {"content":"one"} and the layer "one".
    CHECK(images[0].size == one.size + 17 + 3);
    CHECK(images[1].name == "app");
    CHECK(images[1].tag == "rollback");
    CHECK(images[1].manifest.digest == two.digest);
    CHECK(images[1].created == "2023-11-14T22:14:20Z");
    CHECK(images[1].size == two.size + 17 + 3);
    CHECK(images[2].name == "base");
    CHECK(images[2].tag == "latest");
    CHECK(images[2].created == "2023-11-14T22:16:20Z");
    CHECK(images[2].size == base.size + 18 + 4);
}

TEST_CASE("an image no history entry is about was first recorded at no time", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    add_build(store, "app", "one", 1700000000);
    CHECK(store::first_recorded(store.records().at("app"), Digest::of("other")).empty());
}

TEST_CASE("the stored size of an image whose manifest blob is gone is refused as not found", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    oci::Descriptor image = add_build(store, "app", "one", 1700000000);
    std::filesystem::remove(store.layout().blob_path(image.digest));
    try {
        store::stored_size(store, image);
        FAIL("the size of a missing manifest was read");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::not_found);
        CHECK(e.message() == "no such file: " + store.layout().blob_path(image.digest).string());
    }
}
