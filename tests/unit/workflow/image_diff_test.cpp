#include "core/error.h"
#include "core/file.h"
#include "support/two_builds.h"
#include "workflow/diff_side.h"
#include "workflow/image_diff.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

std::string error_text(const std::filesystem::path& store, const std::string& text)
{
    try {
        workflow::read_diff_side(store, text, "");
    } catch (const Error& e) {
        return std::string(to_string(e.code())) + ": " + e.message() + " | " + e.hint();
    }
    return "read";
}

} // namespace

TEST_CASE("two images of one profile differ by the file, its layer, and the tier on record for one only", "[workflow]")
{
    Scratch scratch;
    TwoBuilds builds = two_builds(scratch);
    workflow::DiffSide before = workflow::read_diff_side(scratch / "store", "app:rollback", "");
    workflow::DiffSide after
        = workflow::read_diff_side(scratch / "store", "app@" + builds.second.manifest.digest.text(), "");
    REQUIRE(before.image);
    REQUIRE(after.image);
    CHECK(before.image->digest == builds.first.manifest.digest);
    CHECK(before.image->base == std::nullopt); // scratch
    using Outcomes = std::vector<std::pair<std::string, workflow::TierOutcome>>;
    CHECK(before.image->verifications == Outcomes { { "static", workflow::TierOutcome::passed } });
    CHECK(after.image->verifications == Outcomes { { "static", workflow::TierOutcome::never } });
    REQUIRE(before.image->layers.size() == builds.first.layers.size());
    CHECK(before.image->layers[0].created_by == builds.first.layers[0].created_by);

    workflow::SideDiff diff = workflow::diff_sides(before, after);
    CHECK(diff.lock.stack.empty());
    REQUIRE(diff.lock.files.size() == 1);
    CHECK(diff.lock.files[0].field == "/app/train.py");
    REQUIRE(diff.image.size() == 1);
    CHECK(diff.image[0].field == "digest");
    CHECK(diff.image[0].after == builds.second.manifest.digest.text());
    // The files' layer, and the kit's, which holds the lock.
    REQUIRE(builds.second.layers.size() == 2);
    REQUIRE(diff.layers.size() == 2);
    CHECK(diff.layers[0].position == 1);
    CHECK(diff.layers[0].after->digest == builds.second.layers[0].descriptor.digest);
    CHECK(diff.layers[1].position == 2);
    CHECK(diff.layers[1].after->created_by == builds.second.layers[1].created_by);
    REQUIRE(diff.verifications.size() == 1);
    CHECK(diff.verifications[0].field == "static");
    CHECK(diff.verifications[0].before == "passed");
    CHECK(diff.verifications[0].after == "not run");
    CHECK(diff.size() == 1 + 1 + 2 + 1 + (diff.bytes ? 1 : 0));
}

TEST_CASE("an image compared with the lock it was built from is equal to it", "[workflow]")
{
    Scratch scratch;
    TwoBuilds builds = two_builds(scratch);
    workflow::DiffSide lock = workflow::read_diff_side(scratch / "store", builds.first_lock, "");
    CHECK_FALSE(lock.image);
    CHECK(workflow::diff_sides(lock, workflow::read_diff_side(scratch / "store", "app:rollback", "")).empty());
    CHECK(workflow::diff_sides(lock, workflow::read_diff_side(scratch / "store", "app", "")).size() == 1);
}

TEST_CASE("a diff's argument that names a file and an image, or neither, or a bad image, is refused", "[workflow]")
{
    Scratch scratch;
    two_builds(scratch);
    std::filesystem::path store = scratch / "store";
    std::filesystem::path cwd = std::filesystem::current_path();
    std::filesystem::current_path(scratch.dir());
    write_file_atomic("app", "{}");
    std::string both = error_text(store, "app");
    std::string neither = error_text(store, "nothing:here");
    std::filesystem::current_path(cwd);
    CHECK(both
        == "invalid_input: \"app\" names both the file app and the image app of the store " + store.string()
            + " | write ./app for the file, or move it away to compare the image");
    CHECK(neither
        == "not_found: \"nothing:here\" is neither a file nor an image of the store " + store.string()
            + " | name a lock file, or an image `dlenv images` lists (NAME[:TAG] or NAME@sha256:...)");
    CHECK(error_text(store, "app:nosuchtag")
        == "not_found: app has no tag \"nosuchtag\" | `dlenv images` lists the tags of each image");
    CHECK(error_text(store, "app@sha256:" + std::string(64, '0'))
        == "not_found: app has no image sha256:" + std::string(64, '0')
            + " | `dlenv history app` lists the images it had");
    CHECK(error_text(store, "app@sha256:zz").starts_with("invalid_input: "));
    CHECK(error_text(store, "Bad/../Name.lock").starts_with("not_found: no such file: Bad/../Name.lock"));
}
