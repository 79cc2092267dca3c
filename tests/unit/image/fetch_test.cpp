// fetch_artifacts against the two kinds of URL a lock holds: file:// (a wheelhouse) and
// http:// (a simple index served on 127.0.0.1).
#include "core/error.h"
#include "core/file.h"
#include "core/sha256.h"
#include "image/fetch.h"
#include "lock/lockfile.h"
#include "store/artifacts.h"
#include "store/store.h"
#include "support/scratch.h"
#include "support/torch_lock.h"
#include "unit/pypi/index_server.h"

#include <catch2/catch.hpp>

using namespace dlenv;
namespace fs = std::filesystem;

namespace {

lock::Lockfile read_lock(const std::string& path)
{
    return lock::Lockfile::parse(path, read_file(path));
}

image::FetchOptions quick_options()
{
    image::FetchOptions options;
    options.retry = http::RetryPolicy { 1 };
    return options;
}

std::size_t artifact_count(const store::Store& store)
{
    std::size_t count = 0;
    if (fs::exists(store::artifact_dir(store)))
        for ([[maybe_unused]] const auto& entry : fs::directory_iterator(store::artifact_dir(store)))
            ++count;
    return count;
}

// The closure of torch 2.1.2+cu118 among the fixture wheels.
const std::vector<std::string> k_closure = {
    "filelock-3.13.1-py3-none-any.whl",
    "nvidia_cublas_cu11-11.11.3.6-py3-none-manylinux1_x86_64.whl",
    "nvidia_cudnn_cu11-8.7.0.84-py3-none-manylinux1_x86_64.whl",
    "nvidia_nccl_cu11-2.18.1-py3-none-manylinux1_x86_64.whl",
    "torch-2.1.2+cu118-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
    "triton-2.1.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
    "typing_extensions-4.9.0-py3-none-any.whl",
};

std::vector<std::string> names(const std::vector<image::FetchedArtifact>& fetched)
{
    std::vector<std::string> out;
    for (const auto& artifact : fetched)
        out.push_back(artifact.artifact.name);
    return out;
}

} // namespace

TEST_CASE("fetch copies a wheelhouse lock's wheels into the store once, each checked against its sha256", "[image]")
{
    Scratch scratch;
    testing::make_fixture_wheels(scratch, "wheels");
    lock::Lockfile lock = read_lock(testing::lock_torch_profile(
        scratch, "torch.lock.json", { "--offline", "--wheelhouse", (scratch / "wheels").string() }));
    store::Store store = store::Store::open_for_writing(scratch / "store");

    std::vector<registry::BlobProgress> finished;
    std::mutex mutex;
    auto first = image::fetch_artifacts(lock, store, quick_options(), [&](const registry::BlobProgress& p) {
        std::lock_guard guard(mutex);
        if (p.state != registry::BlobProgress::State::transferring)
            finished.push_back(p);
    });
    CHECK(names(first) == k_closure);
    for (const auto& artifact : first) {
        INFO(artifact.artifact.name);
        fs::path wheel = scratch / "wheels" / artifact.artifact.name;
        CHECK(artifact.artifact.url == "file://" + wheel.string());
        CHECK_FALSE(artifact.cached);
        CHECK(artifact.bytes == static_cast<std::int64_t>(fs::file_size(wheel)));
        auto stored = store::find_artifact(store, artifact.artifact.sha256);
        REQUIRE(stored);
        CHECK(read_file(*stored) == read_file(wheel));
    }
    CHECK(finished.size() == k_closure.size());
    for (const auto& p : finished)
        CHECK(p.state == registry::BlobProgress::State::finished);

    fs::remove_all(scratch / "wheels"); // the store has them now
    auto second = image::fetch_artifacts(lock, store, quick_options(), {});
    CHECK(names(second) == k_closure);
    for (std::size_t i = 0; i < second.size(); ++i) {
        CHECK(second[i].cached);
        CHECK(second[i].bytes == first[i].bytes);
    }
}

TEST_CASE("fetch downloads an index lock's wheels over HTTP and refuses a file that changed upstream", "[image]")
{
    IndexServer server("");
    const Scratch& scratch = server.scratch;
    std::string simple = server.url + "simple/";
    lock::Lockfile lock = read_lock(testing::lock_torch_profile(
        scratch, "torch.lock.json", { "--index", "pypi=" + simple, "--index", "pytorch=" + simple }));

    store::Store store = store::Store::open_for_writing(scratch / "store");
    auto fetched = image::fetch_artifacts(lock, store, quick_options(), {});
    REQUIRE(names(fetched) == k_closure);
    for (const auto& artifact : fetched) {
        INFO(artifact.artifact.name);
        CHECK(artifact.artifact.url.starts_with(server.url + "files/"));
        CHECK_FALSE(artifact.cached);
        CHECK(sha256_file_hex(*store::find_artifact(store, artifact.artifact.sha256)) == artifact.artifact.sha256);
    }

    // The index now serves other bytes under torch's URL: nothing of them is stored.
    const image::FetchedArtifact& torch = fetched[4];
    fs::path served = scratch / "root" / "files" / torch.artifact.name;
    fs::remove(served);
    write_file_atomic(served, "a different file");
    store::Store fresh = store::Store::open_for_writing(scratch / "fresh");
    image::FetchOptions one_at_a_time = quick_options();
    one_at_a_time.workers = 1;
    try {
        image::fetch_artifacts(lock, fresh, one_at_a_time, {});
        FAIL("the changed file was accepted");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::verification_failed);
        CHECK(std::string(e.what())
            == torch.artifact.url + " has sha256 " + sha256_hex("a different file") + ", the lock pins "
                + torch.artifact.sha256);
        CHECK_THAT(e.hint(), Catch::StartsWith("nothing was stored: the file changed upstream"));
    }
    CHECK_FALSE(store::find_artifact(fresh, torch.artifact.sha256));
    CHECK(artifact_count(fresh) == 4); // the four before torch, and no temporary file

    fs::remove(served);
    try {
        image::fetch_artifacts(lock, fresh, one_at_a_time, {});
        FAIL("a missing file was accepted");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::network);
        CHECK(std::string(e.what()) == "GET " + torch.artifact.url + ": HTTP 404");
    }
}

TEST_CASE("a lock whose packages are not locked has nothing to fetch", "[image]")
{
    Scratch scratch;
    lock::Lockfile lock = read_lock(testing::lock_torch_profile(scratch, "torch.lock.json", { "--offline" }));
    CHECK_FALSE(lock.packages());
    CHECK(image::pinned_artifacts(lock).empty());
    store::Store store = store::Store::open_for_writing(scratch / "store");
    CHECK(image::fetch_artifacts(lock, store, quick_options(), {}).empty());
    CHECK(artifact_count(store) == 0);
}
