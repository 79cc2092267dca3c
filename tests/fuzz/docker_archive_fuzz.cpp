// The manifest.json of a `docker save` archive, imported into an OCI layout
// (dlenv build --base docker-archive:FILE). The input is manifest.json; the archive
// around it holds one config and one layer under blobs/sha256/, the old-style names
// "@CONFIG@.json" and "legacy/layer.tar" linked to them, and in the input "@CONFIG@"
// and "@LAYER@" stand for those two blobs' hex digests.
#include "core/temp_directory.h"
#include "fuzz_input.h"
#include "oci/docker_archive.h"
#include "oci/tar_writer.h"
#include "sandbox.h"

#include <vector>

namespace {

using namespace dlenv;
using oci::LayerEntry;

LayerEntry file(std::string path, std::string contents)
{
    LayerEntry entry { std::move(path), LayerEntry::Type::file, 0644, {}, std::move(contents), 0, {}, {} };
    entry.size = static_cast<std::int64_t>(entry.contents.size());
    return entry;
}

LayerEntry link(std::string path, LayerEntry::Type type, std::string target)
{
    return { std::move(path), type, 0777, {}, {}, 0, std::move(target), {} };
}

std::string tar_of(const std::vector<LayerEntry>& entries)
{
    std::string out;
    oci::TarWriter tar([&](std::string_view bytes) { out.append(bytes); }, 0);
    for (const auto& entry : entries)
        tar.add(entry);
    tar.finish();
    return out;
}

struct Blobs {
    std::string layer = tar_of({ file("etc/hostname", "demo\n") });
    std::string layer_hex = Digest::of(layer).hex();
    std::string config = R"({"architecture":"amd64","os":"linux","rootfs":{"type":"layers","diff_ids":["sha256:)"
        + layer_hex + R"("]}})";
    std::string config_hex = Digest::of(config).hex();
};

std::string replaced(std::string text, std::string_view placeholder, const std::string& value)
{
    for (std::size_t at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder, at))
        text.replace(at, placeholder.size(), value);
    return text;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const fuzz::Sandbox sandbox;
    static const Blobs blobs;
    std::string manifest = replaced(
        replaced(std::string(fuzz::text_of(data, size)), "@CONFIG@", blobs.config_hex), "@LAYER@", blobs.layer_hex);
    std::filesystem::path archive = sandbox.work() / "image.tar";
    fuzz::write_bytes(archive,
        tar_of({ file("blobs/sha256/" + blobs.config_hex, blobs.config),
            file("blobs/sha256/" + blobs.layer_hex, blobs.layer),
            link(blobs.config_hex + ".json", LayerEntry::Type::hardlink, "blobs/sha256/" + blobs.config_hex),
            link("legacy/layer.tar", LayerEntry::Type::symlink, "../blobs/sha256/" + blobs.layer_hex),
            file("manifest.json", manifest) }));
    TempDirectory layout_dir(sandbox.work(), "layout-");
    fuzz::expect_only_error(
        [&] { oci::import_docker_archive(archive, "", oci::ImageLayout::open_or_create(layout_dir.path())); });
    fuzz::expect_only_error([&] {
        oci::import_docker_archive(archive, "demo:latest", oci::ImageLayout::open_or_create(layout_dir.path()));
    });
    return 0;
}
