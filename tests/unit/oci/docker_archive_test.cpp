#include "oci/docker_archive.h"

#include "core/error.h"
#include "core/file.h"
#include "core/sha256.h"
#include "oci/layer_reader.h"
#include "oci/media_types.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

using namespace dlenv;
using namespace dlenv::oci;
namespace fs = std::filesystem;

namespace {

struct SavedImage {
    fs::path archive;
    std::string diff_id; // sha256 of the layer's tar
    std::string config_hex; // sha256 of the config
    std::string layer_member; // the layer's name in the archive
};

// Writes image.tar as `docker save` does: manifest.json, <hex>.json the config and
// <diff_id>/layer.tar, the layer piped through `compress` ("cat" for none). The config
// claims `claimed_diff_id`, or the real one when it is empty.
SavedImage docker_save(const Scratch& scratch, const std::string& compress, const std::string& claimed_diff_id = "")
{
    const std::string tar = "tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0";
    scratch.sh("mkdir -p src/app image && echo hi > src/app/hello && chmod 755 src src/app\n" + tar
        + " -C src -cf layer.tar .\n"
          "diff=$(sha256sum layer.tar | cut -d' ' -f1) && echo $diff > diff.txt\n"
          "claimed="
        + (claimed_diff_id.empty() ? std::string("sha256:$diff") : claimed_diff_id) + "\n"
        + "printf '{\"architecture\":\"amd64\",\"os\":\"linux\",\"rootfs\":{\"type\":\"layers\","
          "\"diff_ids\":[\"%s\"]}}' $claimed > config.json\n"
          "cfg=$(sha256sum config.json | cut -d' ' -f1) && echo $cfg > config.txt && mv config.json image/$cfg.json\n"
          "mkdir image/$diff && "
        + compress
        + " < layer.tar > image/$diff/layer.tar\n"
          "printf '[{\"Config\":\"%s.json\",\"RepoTags\":[\"demo:1\",\"demo:latest\"],"
          "\"Layers\":[\"%s/layer.tar\"]}]' $cfg $diff > image/manifest.json\n"
        + tar + " -C image -cf image.tar .\n");
    auto line = [&](const char* file) {
        std::string text = read_file(scratch / file);
        return text.substr(0, text.find('\n'));
    };
    return { scratch / "image.tar", line("diff.txt"), line("config.txt"), line("diff.txt") + "/layer.tar" };
}

std::string message_of(const fs::path& archive, const std::string& tag, const ImageLayout& layout)
{
    try {
        import_docker_archive(archive, tag, layout);
    } catch (const Error& e) {
        return std::string(to_string(e.code())) + ": " + e.what() + (e.hint().empty() ? "" : " (" + e.hint() + ")");
    }
    return "imported";
}

} // namespace

TEST_CASE("a docker save archive imports as an OCI manifest whose layer unpacks to the saved tree", "[oci]")
{
    auto [compress, media_type] = GENERATE(table<std::string, std::string_view>({
        { "cat", media_type::k_layer_tar },
        { "gzip -n", media_type::k_layer_gzip },
        { "zstd -q -c", media_type::k_layer_zstd },
    }));
    Scratch scratch;
    SavedImage saved = docker_save(scratch, compress);
    ImageLayout layout = ImageLayout::open_or_create(scratch / "layout");

    Descriptor descriptor = import_docker_archive(saved.archive, "demo:latest", layout);

    CHECK(descriptor.media_type == media_type::k_manifest);
    Manifest manifest = Manifest::parse(layout.read_blob(descriptor), "manifest");
    CHECK(manifest.media_type == media_type::k_manifest);
    CHECK(manifest.config.media_type == media_type::k_config);
    CHECK(manifest.config.digest.hex() == saved.config_hex);
    CHECK(layout.read_blob(manifest.config) == read_file(scratch / ("image/" + saved.config_hex + ".json")));
    REQUIRE(manifest.layers.size() == 1);
    CHECK(manifest.layers[0].media_type == media_type);
    CHECK(manifest.layers[0].digest.hex() == sha256_hex(read_file(scratch / ("image/" + saved.layer_member))));
    CHECK(import_docker_archive(saved.archive, "", layout).digest == descriptor.digest);

    fs::create_directory(scratch / "root");
    apply_layer(layout, manifest.layers[0], scratch / "root");
    CHECK(read_file(scratch / "root/app/hello") == "hi\n");
}

TEST_CASE("a tag the docker archive does not hold is refused, naming the tags it does", "[oci]")
{
    Scratch scratch;
    SavedImage saved = docker_save(scratch, "cat");
    ImageLayout layout = ImageLayout::open_or_create(scratch / "layout");

    CHECK(message_of(saved.archive, "other:2", layout)
        == "not_found: " + saved.archive.string()
            + ": has no image tagged other:2 (name one of the tags it holds: demo:1, demo:latest)");
}

TEST_CASE("a docker archive whose config names another diff_id is refused, naming the archive", "[oci]")
{
    Scratch scratch;
    const std::string wrong = "sha256:" + std::string(64, '0');
    SavedImage saved = docker_save(scratch, "cat", wrong);
    ImageLayout layout = ImageLayout::open_or_create(scratch / "layout");

    CHECK(message_of(saved.archive, "demo:1", layout)
        == "verification_failed: " + saved.archive.string() + ": " + saved.config_hex + ".json rootfs.diff_ids[0] is "
            + wrong + " but " + saved.layer_member + " hashes to sha256:" + saved.diff_id
            + " (the archive is damaged: save the image again)");
}

TEST_CASE("a docker archive that lacks a layer its manifest names is refused", "[oci]")
{
    Scratch scratch;
    SavedImage saved = docker_save(scratch, "cat");
    scratch.sh("rm image.tar && tar -C image -cf image.tar manifest.json " + saved.config_hex + ".json");
    ImageLayout layout = ImageLayout::open_or_create(scratch / "layout");

    CHECK(message_of(saved.archive, "", layout)
        == "invalid_input: " + saved.archive.string() + ": manifest.json Layers[0] names " + saved.layer_member
            + ", which the archive lacks (the archive is incomplete: save the image again)");
}

TEST_CASE("a docker archive with several images needs a tag, and the refusal lists them", "[oci]")
{
    Scratch scratch;
    SavedImage saved = docker_save(scratch, "cat");
    scratch.sh("python3 - <<'PY'\n"
               "import json\n"
               "images = json.load(open('image/manifest.json'))\n"
               "images.append(dict(images[0], RepoTags=['other:2']))\n"
               "json.dump(images, open('image/manifest.json', 'w'))\n"
               "PY\n"
               "rm image.tar && tar -C image -cf image.tar .");
    ImageLayout layout = ImageLayout::open_or_create(scratch / "layout");

    CHECK(message_of(saved.archive, "", layout)
        == "invalid_input: " + saved.archive.string()
            + ": holds 2 images (name one of the tags it holds: demo:1, demo:latest, other:2)");
    CHECK(import_docker_archive(saved.archive, "other:2", layout).media_type == media_type::k_manifest);
}

TEST_CASE("a docker archive that repeats a layer through a symbolic link imports it twice", "[oci]")
{
    Scratch scratch;
    SavedImage saved = docker_save(scratch, "cat");
    scratch.sh("diff=$(cat diff.txt) && rm image/*.json image.tar\n"
               "mkdir image/again && ln -s ../$diff/layer.tar image/again/layer.tar\n"
               "printf '{\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[\"sha256:%s\",\"sha256:%s\"]}}' $diff $diff"
               " > image/config.json\n"
               "printf '[{\"Config\":\"config.json\",\"RepoTags\":[\"demo:1\"],"
               "\"Layers\":[\"%s/layer.tar\",\"again/layer.tar\"]}]' $diff > image/manifest.json\n"
               "tar -C image -cf image.tar .");
    ImageLayout layout = ImageLayout::open_or_create(scratch / "layout");

    Manifest manifest = Manifest::parse(layout.read_blob(import_docker_archive(saved.archive, "", layout)), "manifest");

    REQUIRE(manifest.layers.size() == 2);
    CHECK(manifest.layers[0].digest.hex() == saved.diff_id);
    CHECK(manifest.layers[1].digest.hex() == saved.diff_id);
}

TEST_CASE("a Docker 25 archive names its blobs by digest, and a blob that does not match is refused", "[oci]")
{
    Scratch scratch;
    scratch.sh("mkdir -p src/app image/blobs/sha256 && echo hi > src/app/hello\n"
               "tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C src -cf layer.tar .\n"
               "diff=$(sha256sum layer.tar | cut -d' ' -f1) && echo $diff > diff.txt\n"
               "printf '{\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[\"sha256:%s\"]}}' $diff > config.json\n"
               "cfg=$(sha256sum config.json | cut -d' ' -f1)\n"
               "cp layer.tar image/blobs/sha256/$diff && cp config.json image/blobs/sha256/$cfg\n"
               "printf '[{\"Config\":\"blobs/sha256/%s\",\"RepoTags\":[\"demo:25\"],"
               "\"Layers\":[\"blobs/sha256/%s\"]}]' $cfg $diff > image/manifest.json\n"
               "tar -C image -cf image.tar .");
    fs::path archive = scratch / "image.tar";
    std::string diff_id = read_file(scratch / "diff.txt").substr(0, 64);
    ImageLayout layout = ImageLayout::open_or_create(scratch / "layout");

    SECTION("the blobs match their names")
    {
        Manifest manifest
            = Manifest::parse(layout.read_blob(import_docker_archive(archive, "demo:25", layout)), "manifest");
        REQUIRE(manifest.layers.size() == 1);
        CHECK(manifest.layers[0].digest.hex() == diff_id);
        CHECK(manifest.layers[0].media_type == media_type::k_layer_tar);
    }
    SECTION("a layer stored under another digest")
    {
        const std::string wrong(64, 'a');
        scratch.sh("mv image/blobs/sha256/" + diff_id + " image/blobs/sha256/" + wrong + " && sed -i 's/" + diff_id
            + "/" + wrong + "/' image/manifest.json && rm image.tar && tar -C image -cf image.tar .");
        CHECK(message_of(archive, "demo:25", layout)
            == "verification_failed: " + archive.string() + ": blobs/sha256/" + wrong
                + " does not match its digest (the archive is damaged: save the image again)");
    }
}

TEST_CASE("exporting an image one of whose blobs was cut short names the image, the archive and the blob", "[oci]")
{
    Scratch scratch;
    SavedImage saved = docker_save(scratch, "cat");
    ImageLayout layout = ImageLayout::open_or_create(scratch / "layout");
    Descriptor manifest = import_docker_archive(saved.archive, "demo:latest", layout);
    fs::path blob = layout.blob_path(Digest::from_hex(saved.diff_id));
    fs::permissions(blob, fs::perms::owner_write, fs::perm_options::add);
    fs::resize_file(blob, fs::file_size(blob) / 2);
    fs::path out = scratch / "out.tar";

    try {
        export_docker_archive(layout, manifest, { "demo:latest" }, 0, out);
        FAIL("exported an image with a damaged blob");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::io);
        CHECK(std::string(e.what())
            == "export demo:latest to " + out.string() + ": " + blob.string()
                + " changed while it was written into the layer");
    }
    CHECK_FALSE(fs::exists(out));
}
