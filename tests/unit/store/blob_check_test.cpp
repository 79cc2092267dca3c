#include "core/file.h"
#include "oci/media_types.h"
#include "store/blob_check.h"
#include "store/store.h"
#include "support/scratch.h"
#include "support/store_images.h"

#include <catch2/catch.hpp>

using namespace dlenv;

TEST_CASE("each missing or damaged blob of an image is named with what refers to it", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    oci::Descriptor image = add_image(store, "layer");
    oci::Manifest manifest = oci::Manifest::parse(store.layout().read_blob(image), "test");
    std::filesystem::remove(store.layout().blob_path(manifest.config.digest));
    std::filesystem::path layer = store.layout().blob_path(manifest.layers[0].digest);
    std::filesystem::permissions(layer, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
    write_file_atomic(layer, "LAYER");

    store::BlobTally tally;
    std::string referrer = "manifest " + image.digest.short_text() + " -> ";
    CHECK(store::damaged_blobs(store.layout(), image, tally)
        == std::vector<std::string> {
            referrer + manifest.config.digest.text() + ": missing blob " + manifest.config.digest.text(),
            referrer + manifest.layers[0].digest.text() + ": blob " + layer.string() + " does not match its digest" });
    CHECK(tally.blobs == 1);
    CHECK(tally.bytes == image.size);
}

TEST_CASE("blobs a tally has seen are not read again", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    oci::Descriptor image = add_image(store, "layer");
    store::BlobTally tally;
    CHECK(store::damaged_blobs(store.layout(), image, tally).empty());
    CHECK(tally.blobs == 3);
    std::filesystem::remove(store.layout().blob_path(image.digest));
    CHECK(store::damaged_blobs(store.layout(), image, tally).empty());
    CHECK(tally.blobs == 3);
}
