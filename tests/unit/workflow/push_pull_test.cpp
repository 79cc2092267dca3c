#include "core/error.h"
#include "core/file.h"
#include "oci/media_types.h"
#include "store/store.h"
#include "store/tags.h"
#include "support/closed_port.h"
#include "support/local_registry.h"
#include "support/refusal.h"
#include "support/scratch.h"
#include "workflow/pull_into_store.h"
#include "workflow/push_from_store.h"

#include <catch2/catch.hpp>

using namespace dlenv;
using dlenv::testing::LocalRegistry;

namespace {

// A store at DIR/store whose image `name` has `tags`, all on one image: a tar layer with
// /app/hello, a config and a manifest annotated with `base` as its base's name.
oci::Descriptor store_with_image(
    const Scratch& scratch, const std::string& name, const std::vector<std::string>& tags, const std::string& base = "")
{
    scratch.sh("mkdir -p root/app && echo hello >root/app/hello && tar --sort=name --owner=0 --group=0 "
               "--mtime=@0 -C root -cf layer.tar app");
    store::Store store = store::Store::open_for_writing(scratch / "store");
    const oci::ImageLayout& layout = store.layout();
    oci::Descriptor layer = layout.write_blob(read_file(scratch / "layer.tar"), oci::media_type::k_layer_tar);
    oci::Descriptor config = layout.write_blob(R"({"architecture":"amd64","os":"linux"})", oci::media_type::k_config);
    oci::Manifest manifest { std::string(oci::media_type::k_manifest), config, { layer }, {} };
    if (!base.empty())
        manifest.annotations["org.opencontainers.image.base.name"] = base;
    oci::Descriptor image = layout.write_blob(oci::to_blob_json(manifest.to_json()), oci::media_type::k_manifest);
    store::Records records = store.records();
    for (const auto& tag : tags)
        store::record_pull(records, name, tag, image, 1700000000);
    store.commit(std::move(records));
    return image;
}

std::string states(const std::vector<registry::BlobProgress>& blobs)
{
    std::string out;
    for (const auto& blob : blobs)
        out += std::string(out.empty() ? "" : " ")
            + (blob.state == registry::BlobProgress::State::present         ? "present"
                    : blob.state == registry::BlobProgress::State::mounted  ? "mounted"
                    : blob.state == registry::BlobProgress::State::finished ? "finished"
                                                                            : "transferring");
    return out;
}

// A push of `image` from the store at DIR/store, over plain HTTP.
workflow::PushRequest push_request(const Scratch& scratch, const store::ImageTag& image, const std::string& destination)
{
    workflow::PushRequest request;
    request.image = image;
    request.destination = destination;
    request.insecure = true;
    request.store_dir = scratch / "store";
    return request;
}

store::Records records_of(const std::string& name, const std::vector<std::string>& tags)
{
    store::Records records;
    oci::Descriptor image { std::string(oci::media_type::k_manifest), Digest::parse("sha256:" + std::string(64, 'a')),
        1, {}, std::nullopt };
    for (const auto& tag : tags)
        store::record_pull(records, name, tag, image, 0);
    return records;
}

} // namespace

TEST_CASE(
    "an image goes to the registry under the destination's tag and back into a store tagged by its name", "[workflow]")
{
    LocalRegistry registry;
    Scratch scratch;
    oci::Descriptor image = store_with_image(scratch, "app", { "latest" });

    std::vector<std::string> heard;
    workflow::PushRequest push = push_request(scratch, { "app", "latest" }, registry.host + "/team/app:v1");
    push.pushed = [&heard](const workflow::PushedImage& pushed) { heard.push_back(pushed.reference); };
    std::vector<workflow::PushedImage> pushed = workflow::push_from_store(push);
    REQUIRE(pushed.size() == 1);
    CHECK(pushed[0].store_tag == "latest");
    CHECK(pushed[0].reference == registry.host + "/team/app:v1");
    CHECK(pushed[0].manifest.digest == image.digest);
    CHECK(states(pushed[0].blobs) == "finished finished");
    CHECK(heard == std::vector<std::string> { registry.host + "/team/app:v1" });

    workflow::PullRequest pull;
    pull.reference = ImageReference::parse(registry.host + "/team/app:v1");
    pull.insecure = true;
    pull.store_dir = scratch / "pulled";
    pull.clock = [] { return std::int64_t(1700000000); };
    workflow::PulledImage pulled = workflow::pull_into_store(pull);
    CHECK(pulled.name == registry.host + "/team/app");
    CHECK(pulled.tag == "v1");
    CHECK(pulled.pull.image.manifest.digest == image.digest);
    CHECK_FALSE(pulled.pull.image.index);
    CHECK(states(pulled.pull.blobs) == "finished finished");
    CHECK(pulled.entry.action == "pull");
    CHECK(pulled.entry.time == "2023-11-14T22:13:20Z");
    REQUIRE(pulled.entry.moved.size() == 1);
    CHECK(pulled.entry.moved[0].tag == "v1");
    CHECK_FALSE(pulled.entry.moved[0].from);
    CHECK(pulled.entry.moved[0].to == image.digest);

    pull.reference = ImageReference::parse(registry.host + "/team/app@" + image.digest.text());
    workflow::PulledImage by_digest = workflow::pull_into_store(pull);
    CHECK(by_digest.tag == "sha256-" + image.digest.hex());
    CHECK(states(by_digest.pull.blobs) == "present present");

    store::Store store = store::Store::open(scratch / "pulled");
    CHECK(store.find(pulled.name, "v1")->digest == image.digest);
    CHECK(store.find(pulled.name, by_digest.tag)->digest == image.digest);
    CHECK(store.records().at(pulled.name).history.size() == 2);
}

TEST_CASE("a push with --all-tags sends every tag of the name under its own, mounting from the base's repository",
    "[workflow]")
{
    LocalRegistry registry;
    Scratch scratch;
    store_with_image(scratch, "app", { "v1", "v2" }, registry.host + "/team/base:1");
    workflow::push_from_store(push_request(scratch, { "app", "v1" }, registry.host + "/team/base:1"));

    workflow::PushRequest all = push_request(scratch, { "app", "latest" }, registry.host + "/team/app");
    all.all_tags = true;
    std::vector<workflow::PushedImage> pushed = workflow::push_from_store(all);
    REQUIRE(pushed.size() == 2);
    CHECK(pushed[0].reference == registry.host + "/team/app:v1");
    CHECK(pushed[1].reference == registry.host + "/team/app:v2");
    CHECK(states(pushed[0].blobs) == "mounted mounted");
    CHECK(states(pushed[1].blobs) == "present present");
}

TEST_CASE("the tags to push: the destination's tag, latest by default, or every tag under its own", "[workflow]")
{
    store::Records records = records_of("app", { "v1", "v2" });
    auto pairs = [](const std::vector<workflow::TagPush>& tags) {
        std::string out;
        for (const auto& tag : tags)
            out += (out.empty() ? "" : ", ") + tag.store_tag + " -> " + tag.remote_tag;
        return out;
    };
    auto to = [](const std::string& text) { return ImageReference::parse(text); };
    CHECK(pairs(workflow::tags_to_push(records, { "app", "v1" }, to("reg.example/team/app:prod"), false))
        == "v1 -> prod");
    CHECK(pairs(workflow::tags_to_push(records, { "app", "v2" }, to("reg.example/team/app"), false)) == "v2 -> latest");
    CHECK(pairs(workflow::tags_to_push(records, { "app", "latest" }, to("reg.example/team/app"), true))
        == "v1 -> v1, v2 -> v2");
    CHECK(refusal_with_hint([&] {
        workflow::tags_to_push(records, { "app", "v1" }, to("reg.example/team/app:v1"), true);
    })
        == "invalid_input: --all-tags pushes every tag of app under its own name | give the repository without a "
           "tag: reg.example/team/app");
    CHECK_THROWS_AS(workflow::tags_to_push(records, { "other", "v1" }, to("reg.example/team/app"), true), Error);
}

TEST_CASE("blobs are mounted from --mount-from, else from the base's repository in the same registry", "[workflow]")
{
    auto with_base = [](const std::string& base) {
        oci::Manifest manifest { std::string(oci::media_type::k_manifest),
            { std::string(oci::media_type::k_config), Digest::of("{}"), 2, {}, std::nullopt }, {}, {} };
        if (!base.empty())
            manifest.annotations["org.opencontainers.image.base.name"] = base;
        return manifest;
    };
    ImageReference destination = ImageReference::parse("reg.example/team/app:v1");
    CHECK(workflow::mount_source("team/cache", destination, with_base("reg.example/team/base:1")) == "team/cache");
    CHECK(workflow::mount_source("", destination, with_base("reg.example/team/base:1")) == "team/base");
    CHECK(workflow::mount_source("", destination, with_base("reg.example/team/app:0")).empty());
    CHECK(workflow::mount_source("", destination, with_base("other.example/team/base:1")).empty());
    CHECK(workflow::mount_source("", destination, with_base("oci:/srv/base:1")).empty());
    CHECK(workflow::mount_source("", destination, with_base("")).empty());
}

TEST_CASE("a push to a digest, or of a tag the store lacks, is refused before anything is sent", "[workflow]")
{
    Scratch scratch;
    store_with_image(scratch, "app", { "v1" });
    std::string registry = "127.0.0.1:" + std::to_string(dlenv::testing::closed_port());
    std::string digest = "sha256:" + std::string(64, 'b');
    workflow::PushRequest request = push_request(scratch, { "app", "v1" }, registry + "/team/app@" + digest);
    CHECK(refusal_with_hint([&] { workflow::push_from_store(request); })
        == "invalid_input: push to a digest: " + registry + "/team/app@" + digest
            + " | name a tag; the registry answers with the digest");
    request.destination = registry + "/team/app:v1";
    request.image = { "app", "v9" };
    CHECK(refusal_with_hint([&] { workflow::push_from_store(request); })
        == "not_found: app:v9 is not in the store at " + (scratch / "store").string()
            + " | `dlenv images` lists what is there");
}
