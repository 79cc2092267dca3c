#include "core/error.h"
#include "core/file.h"
#include "core/sha256.h"
#include "store/artifacts.h"
#include "store/fsck.h"
#include "store/gc.h"
#include "store/staging.h"
#include "store/store.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

#include <sys/stat.h>

using namespace dlenv;
namespace fs = std::filesystem;

namespace {

// What is in the artifacts directory, temporary files included.
std::vector<std::string> artifact_files(const store::Store& store)
{
    std::vector<std::string> out;
    if (fs::exists(store::artifact_dir(store)))
        for (const auto& entry : fs::directory_iterator(store::artifact_dir(store)))
            out.push_back(entry.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

store::StoredArtifact add(const store::Store& store, const std::string& sha256, const std::string& bytes)
{
    return store::add_artifact(store, sha256, [&](const store::ArtifactSink& sink) {
        sink(bytes.substr(0, 3));
        sink(bytes.substr(3));
    });
}

} // namespace

TEST_CASE("an artifact is stored read-only under its sha256 and found by it", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    std::string hex = sha256_hex("wheel bytes");
    CHECK_FALSE(store::find_artifact(store, hex));

    store::StoredArtifact stored = add(store, hex, "wheel bytes");
    CHECK(stored.path == dir.dir() / "dlenv" / "artifacts" / "sha256" / hex);
    CHECK(stored.size == 11);
    REQUIRE(store::find_artifact(store, hex) == stored.path);
    CHECK(read_file(stored.path) == "wheel bytes");
    struct stat st { };
    REQUIRE(::stat(stored.path.c_str(), &st) == 0);
    CHECK((st.st_mode & 07777) == 0444);
    CHECK(artifact_files(store) == std::vector<std::string> { hex });

    add(store, hex, "wheel bytes"); // again: the same file, nothing else
    CHECK(artifact_files(store) == std::vector<std::string> { hex });
    CHECK_FALSE(store::find_artifact(store, "not-a-sha256"));
}

TEST_CASE("bytes that do not hash to the artifact's sha256 are refused and nothing is left behind", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    std::string expected = sha256_hex("the original");
    try {
        add(store, expected, "something else");
        FAIL("stored");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::verification_failed);
        CHECK(e.message() == "artifact has sha256 " + sha256_hex("something else") + ", expected " + expected);
    }
    CHECK(artifact_files(store).empty());
    CHECK_FALSE(store::find_artifact(store, expected));

    auto own = [](const std::string& actual) { return Error(ErrorCode::verification_failed, "mine: " + actual); };
    CHECK_THROWS_WITH(store::add_artifact(
                          store, expected, [](const store::ArtifactSink& sink) { sink("x"); }, own),
        "mine: " + sha256_hex("x"));

    // A writer that fails half way stores nothing either.
    CHECK_THROWS_WITH(store::add_artifact(store, expected,
                          [](const store::ArtifactSink& sink) {
                              sink("the orig");
                              throw Error(ErrorCode::network, "connection dropped");
                          }),
        "connection dropped");
    CHECK(artifact_files(store).empty());
}

TEST_CASE("fsck names an artifact whose bytes changed, and gc keeps artifacts but removes leftovers", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    std::string good = sha256_hex("good");
    std::string bad = sha256_hex("bad");
    add(store, good, "good");
    fs::path damaged = add(store, bad, "bad").path;
    store::FsckReport sound = store::check_store(store);
    CHECK(sound.ok());
    CHECK(sound.checked_artifacts == 2);
    CHECK(sound.checked_bytes == 7);

    fs::permissions(damaged, fs::perms::owner_write, fs::perm_options::add);
    write_file_atomic(damaged, "evil");
    write_file_atomic(store::artifact_dir(store) / ".half.tmp-123456", "half a download");
    fs::create_directories(store::staging_root(store) / "layer-abcdef" / "usr");
    store::FsckReport report = store::check_store(store);
    CHECK(report.problems
        == std::vector<std::string> { "artifact " + bad + " has sha256 " + sha256_hex("evil")
            + ": remove it, and `dlenv fetch` downloads it again" });
    CHECK(report.notes
        == std::vector<std::string> { "1 temporary file(s) and 1 staging directory(ies) from interrupted writes; "
                                      "the next build, promote, rollback or gc removes them" });
    CHECK(report.checked_artifacts == 1);

    store::collect_garbage(store, 10);
    CHECK(artifact_files(store) == std::vector<std::string> { std::min(good, bad), std::max(good, bad) });
    CHECK_FALSE(fs::exists(store::staging_root(store)));
}

TEST_CASE("a staging directory is removed with everything under it, read-only directories included", "[store]")
{
    Scratch dir;
    store::Store store = store::Store::open_for_writing(dir.dir());
    fs::path path;
    {
        store::StagingDir staging(store);
        path = staging.path();
        CHECK(path.parent_path() == store::staging_root(store));
        fs::create_directories(path / "usr" / "lib");
        write_file_atomic(path / "usr" / "lib" / "x", "x");
        fs::permissions(path / "usr", fs::perms::owner_read | fs::perms::owner_exec);
    }
    CHECK_FALSE(fs::exists(path));
}
