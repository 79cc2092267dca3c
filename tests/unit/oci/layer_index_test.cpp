// index_layers: what an image holds at some paths, from its layers' headers alone.
#include "oci/layer_index.h"

#include "core/error.h"
#include "core/file.h"
#include "oci/media_types.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

using namespace dlenv;
using namespace dlenv::oci;
namespace fs = std::filesystem;

namespace {

constexpr const char* k_tar = "tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0";

// Each indexed path, with " -> target" for a symbolic link and "/" after a directory.
std::vector<std::string> listing(const std::map<std::string, TarEntry>& index)
{
    std::vector<std::string> out;
    for (const auto& [path, entry] : index)
        out.push_back(path
            + (entry.type == TarEntry::Type::symlink          ? " -> " + entry.link_target
                    : entry.type == TarEntry::Type::directory ? "/"
                                                              : ""));
    return out;
}

bool everything(const std::string&)
{
    return true;
}

} // namespace

TEST_CASE("the index holds what the image holds after whiteouts, as unpacking would leave it", "[oci]")
{
    // The same layers as the reader's whiteout test, with a link and a file over a directory.
    Scratch scratch;
    scratch.sh("mkdir -p lower/a/dir/sub lower/b/old lower/c lower/e/under upper/a upper/b/new\n"
               "touch lower/a/keep lower/a/gone lower/a/dir/sub/f lower/b/x lower/b/old/y lower/c/z lower/e/under/u\n"
               "ln -s keep lower/a/link\n"
               "touch upper/a/.wh.gone upper/a/.wh.dir upper/b/.wh..wh..opq upper/b/new/n upper/.wh.c upper/e\n"
        + std::string(k_tar) + " -C lower -czf lower.tgz .\n" + k_tar + " -C upper -cf upper.tar .\n");
    ImageLayout layout = ImageLayout::open_or_create(scratch / "layout");
    std::vector<Descriptor> layers { layout.write_blob(read_file(scratch / "lower.tgz"), media_type::k_layer_gzip),
        layout.write_blob(read_file(scratch / "upper.tar"), media_type::k_layer_tar) };

    CHECK(listing(index_layers(layout, layers, everything))
        == std::vector<std::string> { "a/", "a/keep", "a/link -> keep", "b/", "b/new/", "b/new/n", "e" });
    CHECK(listing(index_layers(layout, layers, [](const std::string& path) { return path.starts_with("a/"); }))
        == std::vector<std::string> { "a/keep", "a/link -> keep" });
}

TEST_CASE("a layer blob that is not what its descriptor says fails the index naming it", "[oci]")
{
    Scratch scratch;
    scratch.sh("mkdir -p root && touch root/f && " + std::string(k_tar) + " -C root -cf layer.tar .");
    ImageLayout layout = ImageLayout::open_or_create(scratch / "layout");
    Descriptor layer = layout.write_blob(read_file(scratch / "layer.tar"), media_type::k_layer_tar);
    fs::path blob = layout.blob_path(layer.digest);
    fs::permissions(blob, fs::perms::owner_write, fs::perm_options::add);
    std::string bytes = read_file(blob);
    bytes.back() ^= 1; // in the padding after the end-of-archive blocks: only the digest sees it
    write_file_atomic(blob, bytes);
    try {
        index_layers(layout, { layer }, everything);
        FAIL("the damaged blob was indexed");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::verification_failed);
        CHECK_THAT(e.what(), Catch::StartsWith("read layer " + layer.digest.text() + ": "));
    }
}
