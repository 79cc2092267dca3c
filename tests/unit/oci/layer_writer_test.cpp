#include "core/error.h"
#include "core/file.h"
#include "core/sha256.h"
#include "core/subprocess.h"
#include "oci/layer_writer.h"
#include "oci/media_types.h"
#include "oci/tar_writer.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <regex>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace dlenv;
using namespace dlenv::oci;
namespace fs = std::filesystem;

namespace {

// A fresh directory under the system temp dir, removed when the test ends.
class TempDir {
public:
    TempDir()
    {
        static int counter = 0;
        m_path = fs::temp_directory_path()
            / ("dlenv-layer-test-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
        fs::remove_all(m_path);
        fs::create_directories(m_path);
    }
    ~TempDir() { fs::remove_all(m_path); }
    const fs::path& path() const { return m_path; }

private:
    fs::path m_path;
};

LayerEntry dir(std::string path, std::uint32_t mode = 0755)
{
    return { std::move(path), LayerEntry::Type::directory, mode, {}, {}, 0, {}, {} };
}

LayerEntry file(std::string path, std::string contents, std::uint32_t mode = 0644)
{
    auto size = static_cast<std::int64_t>(contents.size());
    return { std::move(path), LayerEntry::Type::file, mode, {}, std::move(contents), size, {}, {} };
}

LayerEntry link(std::string path, LayerEntry::Type type, std::string target, std::uint32_t mode = 0777)
{
    return { std::move(path), type, mode, {}, {}, 0, std::move(target), {} };
}

// Text that compresses like real files but spans several gzip blocks.
std::string sample_text(std::size_t size)
{
    std::string text;
    text.reserve(size);
    std::uint32_t state = 12345;
    while (text.size() < size) {
        state = state * 1103515245u + 12345u;
        text += "line " + std::to_string(state % 1000) + " of the sample\n";
    }
    text.resize(size);
    return text;
}

std::vector<LayerEntry> sample_entries()
{
    return { dir("usr"), dir("usr/lib"), file("usr/lib/big.txt", sample_text(3 * (1 << 20) + 12345)),
        file("usr/lib/run.sh", "#!/bin/sh\necho hi\n", 04755),
        link("usr/lib/run-link", LayerEntry::Type::symlink, "run.sh"),
        link("usr/lib/run-hard", LayerEntry::Type::hardlink, "usr/lib/run.sh", 04755), dir("tmp", 01777) };
}

WrittenLayer write(const ImageLayout& layout, std::vector<LayerEntry> entries, Compression compression,
    unsigned threads = 2, std::int64_t epoch = 1700000000)
{
    return write_layer(std::move(entries), LayerOptions { compression, epoch, threads }, layout.new_blob());
}

std::string run(const std::vector<std::string>& argv)
{
    auto result = run_process(argv);
    REQUIRE(result);
    REQUIRE(result->exit_code == 0);
    return result->out;
}

// `tar -tv` output with runs of spaces squeezed, since GNU tar pads its columns.
std::vector<std::string> tar_listing(const fs::path& tar)
{
    ::setenv("TZ", "UTC", 1);
    std::istringstream lines(run({ "tar", "--numeric-owner", "-tvf", tar.string() }));
    std::vector<std::string> out;
    for (std::string line; std::getline(lines, line);)
        out.push_back(std::regex_replace(line, std::regex(" +"), " "));
    return out;
}

// The layer's uncompressed tar, written beside it.
fs::path unpack(const ImageLayout& layout, const WrittenLayer& layer, const std::string& tool)
{
    std::string tar = run({ tool, "-dc", layout.blob_path(layer.descriptor.digest).string() });
    fs::path path = layout.dir() / "layer.tar";
    write_file_atomic(path, tar);
    return path;
}

} // namespace

TEST_CASE("gzip -dc and zstd -dc of a layer give exactly the tar whose sha256 is its diff_id", "[oci]")
{
    TempDir tmp;
    auto layout = ImageLayout::open_or_create(tmp.path() / "layout");
    for (auto [compression, tool] :
        { std::pair { Compression::gzip, "gzip" }, std::pair { Compression::zstd, "zstd" } }) {
        INFO(tool);
        WrittenLayer layer = write(layout, sample_entries(), compression);
        std::string tar = read_file(unpack(layout, layer, tool));
        CHECK(Digest::of(tar) == layer.diff_id);
        CHECK(layer.descriptor.media_type == layer_media_type(compression));
        CHECK(layer.descriptor.size
            == static_cast<std::int64_t>(fs::file_size(layout.blob_path(layer.descriptor.digest))));
        layout.verify_blob(layer.descriptor);
    }
}

TEST_CASE("an uncompressed layer is its tar, so its digest is its diff_id", "[oci]")
{
    TempDir tmp;
    auto layout = ImageLayout::open_or_create(tmp.path() / "layout");
    WrittenLayer layer = write(layout, sample_entries(), Compression::none);
    CHECK(layer.descriptor.digest == layer.diff_id);
    CHECK(layer.descriptor.media_type == media_type::k_layer_tar);
}

TEST_CASE("the same entries give the same diff_id and blob twice and for 1, 2 and 4 threads", "[oci]")
{
    TempDir tmp;
    auto layout = ImageLayout::open_or_create(tmp.path() / "layout");
    for (Compression compression : { Compression::gzip, Compression::zstd }) {
        INFO(to_string(compression));
        WrittenLayer first = write(layout, sample_entries(), compression, 1);
        for (unsigned threads : { 1u, 2u, 4u }) {
            INFO(threads << " threads");
            auto entries = sample_entries();
            std::reverse(entries.begin(), entries.end()); // the writer sorts them
            WrittenLayer again = write(layout, entries, compression, threads);
            CHECK(again.diff_id == first.diff_id);
            CHECK(again.descriptor.digest == first.descriptor.digest);
            CHECK(again.descriptor.size == first.descriptor.size);
        }
    }
}

TEST_CASE("GNU tar lists the paths, modes, owners 0:0, mtimes and link targets of a layer", "[oci]")
{
    TempDir tmp;
    auto layout = ImageLayout::open_or_create(tmp.path() / "layout");
    auto entries = sample_entries();
    entries[2] = file("usr/lib/big.txt", "12345");
    WrittenLayer layer = write(layout, entries, Compression::gzip);
    CHECK(tar_listing(unpack(layout, layer, "gzip"))
        == std::vector<std::string> {
            "drwxrwxrwt 0/0 0 2023-11-14 22:13 tmp/",
            "drwxr-xr-x 0/0 0 2023-11-14 22:13 usr/",
            "drwxr-xr-x 0/0 0 2023-11-14 22:13 usr/lib/",
            "-rw-r--r-- 0/0 5 2023-11-14 22:13 usr/lib/big.txt",
            "hrwsr-xr-x 0/0 0 2023-11-14 22:13 usr/lib/run-hard "
            "link to usr/lib/run.sh",
            "lrwxrwxrwx 0/0 0 2023-11-14 22:13 usr/lib/run-link -> run.sh",
            "-rwsr-xr-x 0/0 18 2023-11-14 22:13 usr/lib/run.sh",
        });
}

TEST_CASE("a layer has no owner names, atime, ctime or xattrs, and ends with two zero blocks", "[oci]")
{
    TempDir tmp;
    auto layout = ImageLayout::open_or_create(tmp.path() / "layout");
    WrittenLayer layer = write(layout, sample_entries(), Compression::none);
    std::string tar = read_file(layout.blob_path(layer.descriptor.digest));
    CHECK(tar.find("atime") == std::string::npos);
    CHECK(tar.find("ctime") == std::string::npos);
    CHECK(tar.find("SCHILY") == std::string::npos);
    CHECK(tar.find("LIBARCHIVE") == std::string::npos);
    CHECK(tar.find("root") == std::string::npos);
    REQUIRE(tar.size() % 512 == 0);
    CHECK(tar.substr(tar.size() - 1024) == std::string(1024, '\0'));
    ::setenv("TZ", "UTC", 1);
    std::string verbose = run({ "tar", "--numeric-owner", "-tvv", "-f", layout.blob_path(layer.diff_id).string() });
    CHECK(verbose.find(" 0/0 ") != std::string::npos);
}

TEST_CASE("a path and a symlink target over 100 characters round-trip through GNU tar", "[oci]")
{
    TempDir tmp;
    auto layout = ImageLayout::open_or_create(tmp.path() / "layout");
    // ustar splits a path into a 155-byte prefix and a 100-byte name, so only a long last
    // component or a long link target needs PAX.
    std::string deep = "d/" + std::string(150, 'p');
    std::string target = std::string(110, 't') + "/target";
    WrittenLayer layer = write(layout,
        { dir("d"), file(deep, "deep\n"), link("d/long-link", LayerEntry::Type::symlink, target) }, Compression::gzip);
    fs::path rootfs = tmp.path() / "rootfs";
    fs::create_directories(rootfs);
    run({ "tar", "-xzf", layout.blob_path(layer.descriptor.digest).string(), "-C", rootfs.string() });
    CHECK(read_file(rootfs / deep) == "deep\n");
    CHECK(fs::read_symlink(rootfs / "d/long-link") == target);
    // PAX header names carry no process id or time, or equal trees would differ.
    std::string tar = read_file(unpack(layout, layer, "gzip"));
    CHECK(tar.find("d/PaxHeader/" + std::string(87, 'p') + '\0') != std::string::npos);
    CHECK(tar.find("d/PaxHeader/long-link") != std::string::npos);
}

TEST_CASE("a hard-linked file of a tree is written once and linked, and round-trips", "[oci]")
{
    TempDir tmp;
    fs::path tree = tmp.path() / "tree";
    fs::create_directories(tree / "b");
    write_file_atomic(tree / "b" / "data", "shared\n");
    fs::create_hard_link(tree / "b" / "data", tree / "a-link");
    auto layout = ImageLayout::open_or_create(tmp.path() / "layout");
    WrittenLayer layer = write(layout, entries_of_directory(tree), Compression::zstd);

    fs::path rootfs = tmp.path() / "rootfs";
    fs::create_directories(rootfs);
    fs::path tar = unpack(layout, layer, "zstd");
    run({ "tar", "-xf", tar.string(), "-C", rootfs.string() });
    CHECK(fs::equivalent(rootfs / "a-link", rootfs / "b" / "data"));
    CHECK(read_file(rootfs / "b" / "data") == "shared\n");
}

TEST_CASE("entries of a directory are sorted byte-wise, parents first, with modes, links and hard links", "[oci]")
{
    TempDir tmp;
    fs::path tree = tmp.path() / "tree";
    fs::create_directories(tree / "a" / "z");
    fs::create_directories(tree / "a-b");
    write_file_atomic(tree / "a" / "z" / "f", "12345");
    ::chmod((tree / "a" / "z" / "f").c_str(), 0600);
    ::chmod((tree / "a-b").c_str(), 0700);
    fs::create_hard_link(tree / "a" / "z" / "f", tree / "a-b" / "h");
    fs::create_symlink("../a/z/f", tree / "a-b" / "s");
    write_file_atomic(tree / "B", "");
    ::chmod((tree / "B").c_str(), 0644);
    ::chmod((tree / "a").c_str(), 0755);
    ::chmod((tree / "a" / "z").c_str(), 0755);

    std::vector<std::string> listed;
    for (const LayerEntry& e : entries_of_directory(tree, "opt/x")) {
        std::ostringstream line;
        line << e.path << " " << static_cast<int>(e.type) << " " << std::oct << e.mode << std::dec << " " << e.size
             << " " << e.link_target;
        listed.push_back(line.str());
    }
    CHECK(listed
        == std::vector<std::string> {
            "opt/x/B 1 644 0 ",
            "opt/x/a 0 755 0 ",
            "opt/x/a-b 0 700 0 ",
            "opt/x/a-b/h 1 600 5 ",
            "opt/x/a-b/s 2 777 0 ../a/z/f",
            "opt/x/a/z 0 755 0 ",
            "opt/x/a/z/f 3 600 0 opt/x/a-b/h",
        });
}

TEST_CASE("a fifo in a tree is refused with an error naming it", "[oci]")
{
    TempDir tmp;
    fs::path tree = tmp.path() / "tree";
    fs::create_directories(tree / "run");
    REQUIRE(::mkfifo((tree / "run" / "pipe").c_str(), 0600) == 0);
    try {
        entries_of_directory(tree);
        FAIL("a fifo was accepted");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(e.message() == (tree / "run" / "pipe").string() + " is a fifo, which dlenv does not put in layers");
        CHECK(e.hint() == "remove it from the tree, or create it when the container starts");
    }
}

TEST_CASE("a file whose size changed since it was listed is refused", "[oci]")
{
    TempDir tmp;
    write_file_atomic(tmp.path() / "f", "grown");
    LayerEntry entry = file("f", "");
    entry.source = tmp.path() / "f";
    entry.size = 3;
    auto layout = ImageLayout::open_or_create(tmp.path() / "layout");
    try {
        write(layout, { entry }, Compression::gzip);
        FAIL("a changed file was accepted");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::io);
        CHECK(e.message() == (tmp.path() / "f").string() + " changed while it was written into the layer");
    }
}

TEST_CASE("a UTF-8 path goes into the layer as it is", "[oci]")
{
    // ca-certificates ships usr/share/ca-certificates/mozilla/NetLock_Arany_=Class_Gold=_Főtanúsítvány.crt.
    TempDir tmp;
    auto layout = ImageLayout::open_or_create(tmp.path() / "layout");
    const std::string name = "NetLock_Arany_=Class_Gold=_F\xc5\x91tan\xc3\xbas\xc3\xadtv\xc3\xa1ny.crt";
    WrittenLayer layer
        = write(layout, { file(name, "pem"), link("caf\xc3\xa9", LayerEntry::Type::symlink, name) }, Compression::gzip);
    // PAX records of the name and the link target, each the bytes given.
    std::string tar = read_file(unpack(layout, layer, "gzip"));
    CHECK(tar.find(" path=" + name + "\n") != std::string::npos);
    CHECK(tar.find(" path=caf\xc3\xa9\n") != std::string::npos);
    CHECK(tar.find(" linkpath=" + name + "\n") != std::string::npos);
}

TEST_CASE("a path that is not UTF-8 is refused, since PAX records hold UTF-8", "[oci]")
{
    TempDir tmp;
    auto layout = ImageLayout::open_or_create(tmp.path() / "layout");
    try {
        write(layout, { file("caf\xc3\xa9", "fine"), file("bad\xff", "1") }, Compression::none);
        FAIL("a path that is not UTF-8 was accepted");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(e.message() == "write the header of bad\xff: Can't translate pathname 'bad\xff' to UTF-8");
    }
}

// Under the sanitizer build this also proves the stream frees all it holds: a writer
// marked failed instead skipped libarchive's close and leaked its output buffer.
TEST_CASE("a tar stream destroyed unfinished after a refused entry hands its sink nothing more", "[oci]")
{
    std::string out;
    {
        TarWriter tar([&](std::string_view bytes) { out.append(bytes); }, 0);
        tar.add(file("a", "1"));
        CHECK_THROWS_AS(tar.add(dir("bad\xff")), Error);
        out.clear();
    }
    CHECK(out.empty());
}

TEST_CASE("two entries with the same path are refused", "[oci]")
{
    TempDir tmp;
    auto layout = ImageLayout::open_or_create(tmp.path() / "layout");
    CHECK_THROWS_WITH(
        write(layout, { file("a", "1"), file("a", "2") }, Compression::none), "the layer has two entries for a");
}

TEST_CASE("a small fixed tree has a fixed diff_id", "[oci]")
{
    // The tar bytes are pinned: a change here changes every layer dlenv has built. If the
    // change is meant, regenerate by printing `layer.diff_id.text()` and say why in the commit.
    TempDir tmp;
    auto layout = ImageLayout::open_or_create(tmp.path() / "layout");
    WrittenLayer layer = write(layout, sample_entries(), Compression::gzip, 2, 0);
    CHECK(layer.diff_id.text() == "sha256:64f686f267ce399a51db15ee5cf4a524e3535c18914bb854ced43d816bb8efc9");
}

// Hidden: reading 8 GiB, even of a sparse file, takes seconds. Run with `unit_tests "[.slow]"`.
TEST_CASE("a file over 8 GiB, beyond what ustar can size, gets a PAX size record", "[.slow]")
{
    TempDir tmp;
    const std::int64_t size = (std::int64_t { 8 } << 30) + 1;
    fs::path sparse = tmp.path() / "big";
    write_file_atomic(sparse, "");
    fs::resize_file(sparse, static_cast<std::uintmax_t>(size));
    LayerEntry entry = file("big", "");
    entry.source = sparse;
    entry.size = size;

    std::string head;
    std::int64_t total = 0;
    TarWriter tar(
        [&](std::string_view bytes) {
            if (head.size() < 2048)
                head.append(bytes.substr(0, 2048 - head.size()));
            total += static_cast<std::int64_t>(bytes.size());
        },
        0);
    tar.add(entry);
    tar.finish();
    CHECK(head.find("size=8589934593\n") != std::string::npos);
    // PAX header and its record, the entry's header, the data padded to a block, the end.
    CHECK(total == 512 + 512 + 512 + (size + 511) / 512 * 512 + 1024);
}
