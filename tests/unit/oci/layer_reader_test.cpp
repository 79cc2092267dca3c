#include "oci/layer_reader.h"

#include "core/error.h"
#include "core/file.h"
#include "oci/compression.h"
#include "oci/media_types.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <sys/stat.h>
#include <vector>

using namespace dlenv;
using namespace dlenv::oci;
namespace fs = std::filesystem;

namespace {

// GNU tar as a reproducible builder runs it.
constexpr const char* k_tar = "tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0";

Descriptor add_blob(const ImageLayout& layout, const fs::path& file, std::string_view media_type)
{
    return layout.write_blob(read_file(file), media_type);
}

// Every path under `root`, sorted: directories end in '/', symbolic links show their target.
std::vector<std::string> tree(const fs::path& root)
{
    std::vector<std::string> out;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        std::string path = entry.path().lexically_relative(root).string();
        if (entry.is_symlink())
            path += " -> " + fs::read_symlink(entry.path()).string();
        else if (entry.is_directory())
            path += "/";
        out.push_back(path);
    }
    std::sort(out.begin(), out.end());
    return out;
}

struct stat lstat_of(const fs::path& path)
{
    struct stat st { };
    REQUIRE(::lstat(path.c_str(), &st) == 0);
    return st;
}

std::string message_of(const ImageLayout& layout, const Descriptor& layer, const fs::path& root)
{
    try {
        apply_layer(layout, layer, root);
    } catch (const Error& e) {
        return std::string(to_string(e.code())) + ": " + e.what();
    }
    return "applied";
}

// Writes a tar with Python's tarfile: `members` is Python code adding to `t`, with
// helpers f(name, data), d(name), s(name, target), h(name, target). `keep` is a Python
// expression for how many bytes to keep, where `end` is the offset after the last entry
// and its padding; None keeps the end-of-archive blocks.
void python_tar(
    const Scratch& scratch, const std::string& out, const std::string& members, const std::string& keep = "None")
{
    scratch.sh("python3 - <<'PY'\n"
               "import io, tarfile\n"
               "b = io.BytesIO()\n"
               "t = tarfile.open(fileobj=b, mode='w', format=tarfile.PAX_FORMAT)\n"
               "def add(i, data=b''):\n"
               "    i.mtime = 0\n"
               "    i.size = len(data)\n"
               "    t.addfile(i, io.BytesIO(data))\n"
               "def f(name, data): i = tarfile.TarInfo(name); i.mode = 0o644; add(i, data)\n"
               "def d(name): i = tarfile.TarInfo(name); i.type = tarfile.DIRTYPE; i.mode = 0o755; add(i)\n"
               "def s(name, target): i = tarfile.TarInfo(name); i.type = tarfile.SYMTYPE; i.linkname = target; add(i)\n"
               "def h(name, target): i = tarfile.TarInfo(name); i.type = tarfile.LNKTYPE; i.linkname = target; add(i)\n"
        + members
        + "\n"
          "end = t.offset\n"
          "t.close()\n"
          "open('"
        + out + "', 'wb').write(b.getvalue()[:" + keep
        + "])\n"
          "PY\n");
}

} // namespace

TEST_CASE("a layer made by GNU tar lands with its files, modes, symbolic links and hard links", "[oci]")
{
    auto [compress, media_type] = GENERATE(table<std::string, std::string_view>({
        { "cat", media_type::k_layer_tar },
        { "gzip -n", media_type::k_layer_gzip },
        { "zstd -q -c", media_type::k_layer_zstd },
        // Two gzip members back to back, as parallel compressors write them.
        { "head -c 1024 layer.tar | gzip -n; tail -c +1025 layer.tar | gzip -n", media_type::k_layer_gzip },
    }));
    Scratch scratch;
    scratch.sh("mkdir -p src/usr/bin src/etc src/ro\n"
               "printf '#!/bin/sh\\n' > src/usr/bin/tool && chmod 4755 src/usr/bin/tool\n"
               "ln src/usr/bin/tool src/usr/bin/tool2\n"
               "printf 'a=1\\n' > src/etc/conf && chmod 640 src/etc/conf\n"
               "ln -s usr/bin src/bin && ln -s /usr/share/zoneinfo/UTC src/etc/localtime\n"
               "echo inside > src/ro/file && chmod 555 src/ro\n"
               "chmod 755 src src/usr src/usr/bin src/etc\n"
        + std::string(k_tar) + " -C src -cf layer.tar .\n" + "{ " + compress + "; } < layer.tar > layer.blob\n");
    ImageLayout layout = ImageLayout::open_or_create(scratch / "layout");
    Descriptor layer = add_blob(layout, scratch / "layer.blob", media_type);
    fs::create_directory(scratch / "root");

    apply_layer(layout, layer, scratch / "root");

    fs::path root = scratch / "root";
    CHECK(tree(root)
        == std::vector<std::string> { "bin -> usr/bin", "etc/", "etc/conf", "etc/localtime -> /usr/share/zoneinfo/UTC",
            "ro/", "ro/file", "usr/", "usr/bin/", "usr/bin/tool", "usr/bin/tool2" });
    CHECK(read_file(root / "usr/bin/tool") == "#!/bin/sh\n");
    CHECK(read_file(root / "etc/conf") == "a=1\n");
    CHECK((lstat_of(root / "usr/bin/tool").st_mode & 07777) == 04755);
    CHECK((lstat_of(root / "etc/conf").st_mode & 07777) == 0640);
    CHECK((lstat_of(root / "ro").st_mode & 07777) == 0555);
    CHECK(lstat_of(root / "usr/bin/tool").st_ino == lstat_of(root / "usr/bin/tool2").st_ino);
    CHECK(lstat_of(root / "etc/conf").st_mtime == 0);
    CHECK(lstat_of(root / "usr").st_mtime == 0);
    CHECK(lstat_of(root / "bin").st_mtime == 0);
}

TEST_CASE("a layer that stops after its last entry's data, without end-of-archive blocks, is applied", "[oci]")
{
    auto [keep, size, compress] = GENERATE(table<std::string, int, std::string>({
        { "end", 2560, "cat" },
        // umoci's unclosed writer leaves out the last entry's padding too.
        { "end - 510", 2050, "cat" },
        { "end - 510", 2050, "gzip -n" },
        { "end - 510", 2050, "zstd -q -c" },
    }));
    Scratch scratch;
    python_tar(scratch, "layer.tar", "d('a')\nf('a/one', b'1')\nf('a/two', b'22')", keep);
    scratch.sh(
        "test $(wc -c < layer.tar) -eq " + std::to_string(size) + " && " + compress + " < layer.tar > layer.blob");
    ImageLayout layout = ImageLayout::open_or_create(scratch / "layout");
    Descriptor layer = add_blob(layout, scratch / "layer.blob", media_type::k_layer_tar);
    fs::create_directory(scratch / "root");

    apply_layer(layout, layer, scratch / "root");

    CHECK(tree(scratch / "root") == std::vector<std::string> { "a/", "a/one", "a/two" });
    CHECK(read_file(scratch / "root/a/two") == "22");
}

TEST_CASE("whiteouts remove what the lower layer left, an opaque one empties its directory", "[oci]")
{
    Scratch scratch;
    scratch.sh("mkdir -p lower/a/dir/sub lower/b/old lower/c upper/a upper/b/new\n"
               "touch lower/a/keep lower/a/gone lower/a/dir/sub/f lower/b/x lower/b/old/y lower/c/z\n"
               "touch upper/a/.wh.gone upper/a/.wh.dir upper/b/.wh..wh..opq upper/b/new/n upper/.wh.c\n"
        + std::string(k_tar) + " -C lower -czf lower.tgz .\n" + k_tar + " -C upper -czf upper.tgz .\n");
    ImageLayout layout = ImageLayout::open_or_create(scratch / "layout");
    fs::create_directory(scratch / "root");

    apply_layer(layout, add_blob(layout, scratch / "lower.tgz", media_type::k_layer_gzip), scratch / "root");
    apply_layer(layout, add_blob(layout, scratch / "upper.tgz", media_type::k_layer_gzip), scratch / "root");

    CHECK(tree(scratch / "root") == std::vector<std::string> { "a/", "a/keep", "b/", "b/new/", "b/new/n" });
}

TEST_CASE("an opaque whiteout after its siblings hides only what lower layers left", "[oci]")
{
    Scratch scratch;
    scratch.sh("mkdir -p lower/d/keep && touch lower/d/old lower/d/keep/lower-file\n" + std::string(k_tar)
        + " -C lower -cf lower.tar .\n");
    python_tar(scratch, "upper.tar", "f('d/new', b'n')\nf('d/keep/upper-file', b'u')\nf('d/.wh..wh..opq', b'')");
    ImageLayout layout = ImageLayout::open_or_create(scratch / "layout");
    fs::create_directory(scratch / "root");

    apply_layer(layout, add_blob(layout, scratch / "lower.tar", media_type::k_layer_tar), scratch / "root");
    apply_layer(layout, add_blob(layout, scratch / "upper.tar", media_type::k_layer_tar), scratch / "root");

    CHECK(tree(scratch / "root") == std::vector<std::string> { "d/", "d/keep/", "d/keep/upper-file", "d/new" });
}

TEST_CASE("a layer that would write outside the root or make a device is refused and writes nothing outside", "[oci]")
{
    Scratch scratch;
    std::string outside = (scratch / "outside").string();
    auto [members, refusal] = GENERATE_COPY(table<std::string, std::string>({
        { "f('/abs', b'x')", "/abs: absolute path" },
        { "f('../outside/x', b'x')", "../outside/x: path has a \"..\" component" },
        { "s('link', '" + outside + "')\nf('link/pwned', b'x')",
            "link/pwned: goes through the symbolic link link -> " + outside + ", which leads out of the root" },
        { "s('up', '../outside')", "up: symbolic link to ../outside leads out of the root" },
        { "d('a')\ns('a/up', '../..')", "a/up: symbolic link to ../.. leads out of the root" },
        { "h('passwd', '../../etc/passwd')", "passwd: hard link to ../../etc/passwd leads out of the root" },
        { "i = tarfile.TarInfo('dev/null'); i.type = tarfile.CHRTYPE; i.devmajor = 1; i.devminor = 3; add(i)",
            "dev/null: device nodes, fifos and sockets are not unpacked" },
        { "i = tarfile.TarInfo('pipe'); i.type = tarfile.FIFOTYPE; add(i)",
            "pipe: device nodes, fifos and sockets are not unpacked" },
    }));
    python_tar(scratch, "layer.tar", members);
    scratch.sh("mkdir outside root");
    ImageLayout layout = ImageLayout::open_or_create(scratch / "layout");
    Descriptor layer = add_blob(layout, scratch / "layer.tar", media_type::k_layer_tar);

    CHECK(message_of(layout, layer, scratch / "root")
        == "invalid_input: apply layer " + layer.digest.text() + ": " + refusal);
    CHECK(fs::is_empty(scratch / "outside"));
    std::vector<std::string> top;
    for (const auto& entry : fs::directory_iterator(scratch.dir()))
        top.push_back(entry.path().filename().string());
    std::sort(top.begin(), top.end());
    CHECK(top == std::vector<std::string> { "layer.tar", "layout", "outside", "root" });
    CHECK(!fs::exists("/abs"));
}

TEST_CASE("a blob whose bytes or size differ from its descriptor is refused", "[oci]")
{
    Scratch scratch;
    scratch.sh("mkdir src && echo hello > src/f && " + std::string(k_tar) + " -C src -cf layer.tar .");
    ImageLayout layout = ImageLayout::open_or_create(scratch / "layout");
    Descriptor layer = add_blob(layout, scratch / "layer.tar", media_type::k_layer_tar);
    std::string expected_size = std::to_string(layer.size);
    fs::create_directory(scratch / "root");

    SECTION("a byte of the end-of-archive blocks changed")
    {
        // Past the tar's last entry, so only the digest can tell.
        fs::path blob = layout.blob_path(layer.digest);
        scratch.sh("chmod u+w '" + blob.string() + "' && printf x | dd of='" + blob.string()
            + "' bs=1 seek=$(( $(wc -c < layer.tar) - 1 )) conv=notrunc 2>/dev/null");
        CHECK(message_of(layout, layer, scratch / "root")
            == "verification_failed: apply layer " + layer.digest.text() + ": blob does not match its digest");
    }
    SECTION("a descriptor that claims another size")
    {
        layer.size += 1;
        CHECK(message_of(layout, layer, scratch / "root")
            == "verification_failed: apply layer " + layer.digest.text() + ": blob has " + expected_size
                + " bytes, its descriptor says " + std::to_string(layer.size));
    }
}

TEST_CASE("a layer cut off inside an entry's data or header is refused as damaged", "[oci]")
{
    // ./ and ./big take 512 + 512 + 3072 bytes; ./small's header follows.
    auto cut = GENERATE(2048, 4196);
    Scratch scratch;
    scratch.sh("mkdir src && head -c 3000 /dev/zero > src/big && echo small > src/small && " + std::string(k_tar)
        + " -C src -cf layer.tar . && head -c " + std::to_string(cut) + " layer.tar > cut.tar");
    ImageLayout layout = ImageLayout::open_or_create(scratch / "layout");
    Descriptor layer = add_blob(layout, scratch / "cut.tar", media_type::k_layer_tar);
    fs::create_directory(scratch / "root");

    // libarchive's own words follow, and they vary between its versions.
    CHECK_THAT(message_of(layout, layer, scratch / "root"),
        Catch::StartsWith("invalid_input: apply layer " + layer.digest.text() + ": read blob: "));
}

TEST_CASE("a sparse file lands with its holes as zeros, also one that ends in a hole", "[oci]")
{
    auto format = GENERATE(std::string("gnu"), std::string("posix"));
    Scratch scratch;
    // Data at 1 MiB and at 3 MiB, holes before, between and after (the file is 5 MiB).
    scratch.sh("mkdir src && truncate -s 5M src/sparse\n"
               "printf data1 | dd of=src/sparse bs=1 seek=1048576 conv=notrunc 2>/dev/null\n"
               "printf data3 | dd of=src/sparse bs=1 seek=3145728 conv=notrunc 2>/dev/null\n"
        + std::string(k_tar) + " --sparse --format=" + format + " -C src -cf layer.tar .\n");
    ImageLayout layout = ImageLayout::open_or_create(scratch / "layout");
    fs::create_directory(scratch / "root");

    apply_layer(layout, add_blob(layout, scratch / "layer.tar", media_type::k_layer_tar), scratch / "root");

    CHECK(read_file(scratch / "root/sparse") == read_file(scratch / "src/sparse"));
    CHECK(fs::file_size(scratch / "root/sparse") == 5u << 20);
}
