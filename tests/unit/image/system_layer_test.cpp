// The system packages' layer: what a .deb's data.tar becomes in the layer, and the .debs
// it refuses. The .debs are made here with python's tarfile and ar, as deb(5) lays them out.
#include "core/error.h"
#include "core/file.h"
#include "core/sha256.h"
#include "image/system_layer.h"
#include "lock/lockfile.h"
#include "store/artifacts.h"
#include "store/staging.h"
#include "store/store.h"
#include "support/resigned_lock.h"
#include "support/scratch.h"
#include "support/torch_lock.h"

#include <catch2/catch.hpp>

#include <map>

using namespace dlenv;
namespace fs = std::filesystem;

namespace {

const std::string k_status = "Package: libc6\nStatus: install ok installed\nVersion: 2.36-9+deb12u4\n"
                             "Architecture: amd64\nMulti-Arch: same\n";

// A .deb named NAME with a control file and the data.tar members `members` ("TYPE PATH
// [TARGET]": file, dir, symlink, hardlink, fifo).
fs::path make_deb(const Scratch& scratch, const std::string& name, const std::string& members)
{
    scratch.sh("mkdir -p " + name + " && cd " + name
        + " && python3 - <<'PY'\n"
          "import io, tarfile\n"
          "def tar(path, entries, mode):\n"
          "    with tarfile.open(path, mode) as t:\n"
          "        for kind, member, *rest in entries:\n"
          "            info = tarfile.TarInfo(member)\n"
          "            data = b''\n"
          "            if kind == 'file': data = b'content of ' + member.encode(); info.size = len(data)\n"
          "            if kind == 'dir': info.type = tarfile.DIRTYPE; info.mode = 0o755\n"
          "            if kind == 'symlink': info.type, info.linkname = tarfile.SYMTYPE, rest[0]\n"
          "            if kind == 'hardlink': info.type, info.linkname = tarfile.LNKTYPE, rest[0]\n"
          "            if kind == 'fifo': info.type = tarfile.FIFOTYPE\n"
          "            t.addfile(info, io.BytesIO(data))\n"
          "control = b'Package: "
        + name
        + "\\nVersion: 1.0-1\\nArchitecture: amd64\\n'\n"
          "with tarfile.open('control.tar.gz', 'w:gz') as t:\n"
          "    info = tarfile.TarInfo('./control'); info.size = len(control); t.addfile(info, io.BytesIO(control))\n"
          "tar('data.tar.xz', [line.split() for line in '''"
        + members
        + "'''.strip().splitlines()], 'w:xz')\n"
          "open('debian-binary', 'w').write('2.0\\n')\n"
          "PY\n"
          "ar rc ../"
        + name + "_1.0-1_amd64.deb debian-binary control.tar.gz data.tar.xz");
    return scratch / (name + "_1.0-1_amd64.deb");
}

// The lock of the torch profile with `debs` as its system packages, and a store holding them.
lock::Lockfile lock_with(const Scratch& scratch, const store::Store& store, const std::vector<fs::path>& debs)
{
    testing::make_fixture_wheels(scratch, "wheels");
    std::string path
        = testing::lock_torch_profile(scratch, "torch.lock.json", { "--wheelhouse", (scratch / "wheels").string() });
    nlohmann::json json = nlohmann::json::parse(read_file(path));
    nlohmann::json packages = nlohmann::json::array();
    for (const auto& deb : debs) {
        std::string sha256 = sha256_file_hex(deb);
        store::add_artifact(store, sha256, [&](const store::ArtifactSink& sink) { sink(read_file(deb)); });
        std::string name = deb.filename().string().substr(0, deb.filename().string().find('_'));
        packages.push_back({ { "name", name }, { "version", "1.0-1" }, { "architecture", "amd64" },
            { "filename", deb.filename().string() }, { "url", "file://" + deb.string() },
            { "size", fs::file_size(deb) }, { "sha256", sha256 }, { "origin", "bookworm/main" },
            { "required_by", { "profile" } } });
    }
    json["system_packages"] = { { "requested", { "x" } }, { "architecture", "amd64" },
        { "archive",
            { { "url", "file:///archive" }, { "suites", { "bookworm" } }, { "components", { "main" } },
                { "origin", "profile system_archive" }, { "release_sha256", nlohmann::json::object() } } },
        { "base_status_sha256", sha256_hex(k_status) }, { "already_installed", nlohmann::json::array() },
        { "packages", packages } };
    write_file_atomic(path, testing::resigned_lock(json));
    return lock::Lockfile::parse(path, read_file(path));
}

const image::BaseFilesystem k_base { { "ID=debian\n", k_status },
    { { "lib", "usr/lib" }, { "var/run", "run" }, { "usr/lib/x86_64-linux-gnu/libdemo.so.1", "old" } } };

std::vector<oci::LayerEntry> entries_of(
    const lock::Lockfile& lock, const store::Store& store, const image::BaseFilesystem& base = k_base)
{
    auto layer = image::system_packages_layer(lock, base, oci::Compression::gzip);
    REQUIRE(layer);
    store::StagingDir staging(store);
    return layer->layer.entries(store, staging.path());
}

std::string error_of(const lock::Lockfile& lock, const store::Store& store)
{
    try {
        entries_of(lock, store);
    } catch (const Error& e) {
        return e.message();
    }
    return "installed";
}

} // namespace

TEST_CASE("a .deb's files go through the base's top-level links, with dpkg's database beside them", "[image]")
{
    Scratch scratch;
    store::Store store = store::Store::open_for_writing(scratch / "store");
    fs::path deb = make_deb(scratch, "libdemo1",
        "dir ./\ndir ./lib\ndir ./lib/x86_64-linux-gnu\n"
        "file ./lib/x86_64-linux-gnu/libdemo.so.1.0\n"
        "symlink ./lib/x86_64-linux-gnu/libdemo.so.1 libdemo.so.1.0\n"
        "hardlink ./lib/x86_64-linux-gnu/libdemo.so.1.0.copy "
        "./lib/x86_64-linux-gnu/libdemo.so.1.0\n"
        "dir ./var/run\nfile ./var/run/demo.pid\n");
    lock::Lockfile lock = lock_with(scratch, store, { deb });
    std::map<std::string, oci::LayerEntry> entries;
    for (auto& entry : entries_of(lock, store))
        entries[entry.path] = entry;
    CHECK_FALSE(entries.contains("lib")); // the base's link stays
    CHECK(entries.at("usr/lib/x86_64-linux-gnu/libdemo.so.1.0").type == oci::LayerEntry::Type::file);
    CHECK(entries.at("usr/lib/x86_64-linux-gnu/libdemo.so.1").link_target == "libdemo.so.1.0"); // replaces the base's
    CHECK_FALSE(entries.contains("var/run"));
    CHECK(entries.at("run/demo.pid").type == oci::LayerEntry::Type::file);
    CHECK(entries.at("usr/lib/x86_64-linux-gnu/libdemo.so.1.0.copy").link_target
        == "usr/lib/x86_64-linux-gnu/libdemo.so.1.0");
    CHECK(entries.at("var/lib/dpkg/info/libdemo1.list").contents
        == "/.\n/lib\n/lib/x86_64-linux-gnu\n/lib/x86_64-linux-gnu/libdemo.so.1.0\n"
           "/lib/x86_64-linux-gnu/libdemo.so.1\n/lib/x86_64-linux-gnu/libdemo.so.1.0.copy\n/var/run\n"
           "/var/run/demo.pid\n");
    CHECK(entries.at("var/lib/dpkg/status").contents
        == k_status + "\nPackage: libdemo1\nStatus: install ok installed\nVersion: 1.0-1\nArchitecture: amd64\n\n");
}

TEST_CASE("a .deb with hostile members is refused naming the member", "[image]")
{
    struct Case {
        std::string members;
        std::string message;
    };
    std::vector<Case> cases = {
        { "file ./../../etc/passwd", "evil_1.0-1_amd64.deb: data.tar: ./../../etc/passwd: a \"..\" component" },
        { "file /etc/shadow", "evil_1.0-1_amd64.deb: data.tar: /etc/shadow: an absolute path" },
        { "fifo ./run/pipe",
            "evil_1.0-1_amd64.deb: data.tar: ./run/pipe: devices, fifos and sockets are not installed" },
        { "hardlink ./usr/bin/x ./etc/shadow",
            "evil_1.0-1_amd64.deb: data.tar: ./usr/bin/x: a hard link to ./etc/shadow, no earlier file of it" },
        { "file ./var/lib/dpkg/status", "dpkg's database and evil_1.0-1_amd64.deb both ship /var/lib/dpkg/status" },
    };
    for (const auto& c : cases) {
        CAPTURE(c.members);
        Scratch scratch;
        store::Store store = store::Store::open_for_writing(scratch / "store");
        lock::Lockfile lock = lock_with(scratch, store, { make_deb(scratch, "evil", c.members) });
        CHECK(error_of(lock, store) == c.message);
    }
}

TEST_CASE("a base whose dpkg status changed since the lock is refused", "[image]")
{
    Scratch scratch;
    store::Store store = store::Store::open_for_writing(scratch / "store");
    lock::Lockfile lock = lock_with(scratch, store, { make_deb(scratch, "libdemo1", "file ./usr/lib/a") });
    image::BaseFilesystem changed { { "ID=debian\n", k_status + "\n" }, {} };
    try {
        image::system_packages_layer(lock, changed, oci::Compression::gzip);
        FAIL("accepted");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::conflict);
        CHECK(e.message().starts_with(
            "the base's /var/lib/dpkg/status is not the one the system packages were locked against"));
    }
}
