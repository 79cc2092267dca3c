#include "core/error.h"
#include "core/file.h"
#include "image/dockerfile.h"
#include "lock/lockfile.h"
#include "sbom/spdx.h"
#include "store/attachments.h"
#include "store/store.h"
#include "support/scratch.h"
#include "support/scratch_build.h"
#include "support/store_images.h"
#include "workflow/build_into_store.h"
#include "workflow/image_sbom.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

using namespace dlenv;

TEST_CASE("build_into_store tags the image latest, then writes its docker archive and its Docker context", "[workflow]")
{
    Scratch scratch;
    std::string lockfile = scratch_lock(scratch, { "static" });
    workflow::BuildIntoStoreRequest request;
    request.store_dir = scratch / "store";
    request.archive = scratch / "app.tar";
    request.dockerfile = scratch / "context" / "Dockerfile";
    std::vector<std::string> steps;
    request.progress = [&steps](const std::string& step) { steps.push_back(step); };
    request.clock = [] { return std::int64_t(1700000000); };
    image::BuildRequest build = image::prepare_build(lockfile, "app", "", oci::Compression::gzip, request.store_dir);
    image::BuildResult result = workflow::build_into_store(build, request, matrix::Matrix::embedded());

    CHECK(result.name == "app");
    CHECK(result.history.action == "build");
    CHECK(result.history.time == "2023-11-14T22:13:20Z");
    CHECK(tag_digest(store::Store::open(request.store_dir), "app", "latest") == result.manifest.digest.text());
    REQUIRE_FALSE(steps.empty());
    CHECK(steps.front() == "base image scratch");
    CHECK(steps.back() == "docker archive " + (scratch / "app.tar").string());

    scratch.sh("tar -xOf app.tar manifest.json >manifest.json");
    nlohmann::json manifests = nlohmann::json::parse(read_file(scratch / "manifest.json"));
    REQUIRE(manifests.size() == 1);
    CHECK(manifests[0].at("RepoTags") == nlohmann::json({ "app:latest" }));

    CHECK(read_file(scratch / "context" / "Dockerfile")
        == image::render_dockerfile(build.lock, matrix::Matrix::embedded(), result.packages));
    CHECK(read_file(scratch / "context" / "dlenv.lock.json") == read_file(lockfile));
    CHECK(read_file(scratch / "context" / "files" / "app" / "train.py") == "print('train')\n");
}

TEST_CASE("build_into_store without an archive or a Dockerfile writes only the store, heard or not", "[workflow]")
{
    Scratch scratch;
    std::string lockfile = scratch_lock(scratch, { "static" });
    image::BuildResult result = build_scratch_image(scratch, lockfile);
    CHECK(tag_digest(store::Store::open(scratch / "store"), "app", "latest") == result.manifest.digest.text());
    std::vector<std::string> left;
    for (const auto& entry : std::filesystem::directory_iterator(scratch.dir()))
        left.push_back(entry.path().filename().string());
    std::sort(left.begin(), left.end());
    CHECK(left == std::vector<std::string> { "app.lock.json", "profile.json", "store", "train.py" });
}

TEST_CASE("an archive that names a directory fails the build after the image is tagged", "[workflow]")
{
    Scratch scratch;
    std::string lockfile = scratch_lock(scratch, { "static" });
    workflow::BuildIntoStoreRequest request;
    request.store_dir = scratch / "store";
    std::filesystem::create_directory(scratch / "app.tar");
    request.archive = scratch / "app.tar";
    request.dockerfile = scratch / "Dockerfile";
    image::BuildRequest build = image::prepare_build(lockfile, "app", "", oci::Compression::gzip, request.store_dir);
    try {
        workflow::build_into_store(build, request, matrix::Matrix::embedded());
        FAIL("an archive over a directory was written");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(e.message() == (scratch / "app.tar").string() + " is a directory, which dlenv does not write to");
    }
    CHECK(tag_digest(store::Store::open(request.store_dir), "app", "latest") != "(none)");
    CHECK_FALSE(std::filesystem::exists(scratch / "Dockerfile"));
}

TEST_CASE(
    "build_into_store keeps the image's lock and the SPDX document `dlenv sbom` writes by its digest", "[workflow]")
{
    Scratch scratch;
    std::string lockfile = scratch_lock(scratch, { "static" });
    workflow::BuildIntoStoreRequest request;
    request.store_dir = scratch / "store";
    request.tool_version = "0.1.0";
    image::BuildRequest build = image::prepare_build(lockfile, "app", "", oci::Compression::gzip, request.store_dir);
    image::BuildResult result = workflow::build_into_store(build, request, matrix::Matrix::embedded());

    store::Store store = store::Store::open(request.store_dir);
    auto attached = store::read_attachments(store, result.manifest.digest);
    REQUIRE(attached.size() == 2);
    CHECK(attached.at("sbom").media_type == "application/spdx+json");
    CHECK(attached.at("sbom").source == "build");
    CHECK(store::read_attachment(store, attached.at("sbom"))
        == sbom::spdx_document(workflow::sbom_subject(store, "app", "latest"), "0.1.0").dump(2) + "\n");
    CHECK(attached.at("lock").media_type == "application/vnd.dlenv.lock.v1+json");
    CHECK(store::read_attachment(store, attached.at("lock")) == build.lock.text());
}
