// The packages layer: what pypi::install_wheel puts into a tree, planned from the lock
// without installing anything until the layer cache misses.
#include "core/file.h"
#include "core/sha256.h"
#include "image/packages_layer.h"
#include "oci/layer_entry.h"
#include "pypi/installer.h"
#include "store/artifacts.h"
#include "store/staging.h"
#include "store/store.h"
#include "support/scratch.h"
#include "support/torch_lock.h"

#include <catch2/catch.hpp>

#include <map>
#include <sys/stat.h>

using namespace dlenv;
namespace fs = std::filesystem;

namespace {

struct Node {
    oci::LayerEntry::Type type;
    unsigned mode;
    std::string contents;
    bool operator==(const Node&) const = default;
};

// Every file and directory under `root` by relative path: what an installation made.
std::map<std::string, Node> tree_of(const fs::path& root)
{
    std::map<std::string, Node> out;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        struct stat st { };
        REQUIRE(::lstat(entry.path().c_str(), &st) == 0);
        std::string path = fs::relative(entry.path(), root).generic_string();
        if (S_ISDIR(st.st_mode))
            out[path] = { oci::LayerEntry::Type::directory, 0755, {} };
        else
            out[path]
                = { oci::LayerEntry::Type::file, static_cast<unsigned>(st.st_mode & 07777), read_file(entry.path()) };
    }
    return out;
}

std::map<std::string, Node> tree_of(const std::vector<oci::LayerEntry>& entries)
{
    std::map<std::string, Node> out;
    for (const auto& entry : entries)
        out[entry.path] = { entry.type, entry.mode,
            entry.type == oci::LayerEntry::Type::file ? read_file(entry.source) : std::string() };
    return out;
}

const pypi::InstallScheme k_scheme = pypi::InstallScheme::for_prefix("usr/local", PythonVersion::parse("3.11"));

} // namespace

TEST_CASE("the packages layer holds exactly what install_wheel puts into a tree under the prefix", "[image]")
{
    Scratch scratch;
    scratch.sh("python3 '" DLENV_SOURCE_DIR "/tests/fixtures/wheels/make_wheels.py' install install");
    fs::path wheel = scratch / "install" / "demo_pkg-1.0-py3-none-any.whl";
    std::string sha256 = sha256_file_hex(wheel);
    store::Store store = store::Store::open_for_writing(scratch / "store");
    store::add_artifact(store, sha256, [&](const store::ArtifactSink& sink) { sink(read_file(wheel)); });
    lock::LockedPackage package { "demo-pkg", "1.0", "wheelhouse", wheel.filename().string(),
        "file://" + wheel.string(), sha256, std::nullopt, { "profile" } };

    store::StagingDir staging(store);
    std::vector<oci::LayerEntry> entries = image::install_packages({ package }, k_scheme, store, staging.path());
    pypi::install_wheel(wheel, k_scheme, scratch / "pip-like");
    std::map<std::string, Node> layer = tree_of(entries);
    CHECK(layer == tree_of(scratch / "pip-like"));
    CHECK(layer.at("usr/local/lib/python3.11/site-packages/demo_pkg-1.0.dist-info/INSTALLER")
        == Node { oci::LayerEntry::Type::file, 0644, "dlenv\n" });
    CHECK(layer.at("usr/local/bin/demo").mode == 0755);
    CHECK(layer.at("usr/local/bin/demo").contents.starts_with("#!/usr/local/bin/python3.11\n"));
    CHECK(layer.at("usr").type == oci::LayerEntry::Type::directory);
}

TEST_CASE("wheels install from a store named by a relative path", "[image]")
{
    // The wheels are linked beside the tree: a link to a relative artifact path would
    // resolve against the link's directory, not against the working directory.
    Scratch scratch;
    scratch.sh("python3 '" DLENV_SOURCE_DIR "/tests/fixtures/wheels/make_wheels.py' install install");
    fs::path wheel = scratch / "install" / "demo_pkg-1.0-py3-none-any.whl";
    std::string sha256 = sha256_file_hex(wheel);
    struct InDirectory {
        fs::path before = fs::current_path();
        ~InDirectory() { fs::current_path(before); }
    } in_scratch;
    fs::current_path(scratch.dir());
    store::Store store = store::Store::open_for_writing("s");
    store::add_artifact(store, sha256, [&](const store::ArtifactSink& sink) { sink(read_file(wheel)); });
    lock::LockedPackage package { "demo-pkg", "1.0", "wheelhouse", wheel.filename().string(),
        "file://" + wheel.string(), sha256, std::nullopt, { "profile" } };
    store::StagingDir staging(store);
    std::vector<oci::LayerEntry> entries = image::install_packages({ package }, k_scheme, store, staging.path());
    CHECK(tree_of(entries).at("usr/local/lib/python3.11/site-packages/demo_pkg/__init__.py").contents
        == "VERSION = '1.0'\n");
}

TEST_CASE("a wheel the store has not fetched is named, with what to run", "[image]")
{
    Scratch scratch;
    store::Store store = store::Store::open_for_writing(scratch / "store");
    lock::LockedPackage package { "demo-pkg", "1.0", "pypi", "demo_pkg-1.0-py3-none-any.whl", "https://x/demo.whl",
        std::string(64, 'a'), std::nullopt, { "profile" } };
    store::StagingDir staging(store);
    CHECK_THROWS_WITH(image::install_packages({ package }, k_scheme, store, staging.path()),
        "install demo_pkg-1.0-py3-none-any.whl: the store has no artifact sha256:" + std::string(64, 'a'));
}

TEST_CASE("a lock plans a packages layer only when it pins packages, keyed on their sha256", "[image]")
{
    Scratch scratch;
    testing::make_fixture_wheels(scratch, "wheels");
    std::string with = testing::lock_torch_profile(
        scratch, "with.lock.json", { "--offline", "--wheelhouse", (scratch / "wheels").string() });
    std::string without = testing::lock_torch_profile(scratch, "without.lock.json", { "--offline" });
    lock::Lockfile locked = lock::Lockfile::parse(with, read_file(with));

    auto layer = image::packages_layer(locked, k_scheme, 1700000000, oci::Compression::gzip);
    REQUIRE(layer);
    CHECK(layer->created_by == "dlenv build: 7 Python packages into /usr/local/lib/python3.11/site-packages");
    CHECK(layer->reads_artifacts);
    CHECK(image::packages_layer(locked, k_scheme, 1700000000, oci::Compression::gzip)->cache_key == layer->cache_key);
    CHECK(image::packages_layer(locked, k_scheme, 1700000001, oci::Compression::gzip)->cache_key != layer->cache_key);
    CHECK(image::packages_layer(locked, k_scheme, 1700000000, oci::Compression::zstd)->cache_key != layer->cache_key);
    pypi::InstallScheme debian = pypi::InstallScheme::debian_local(PythonVersion::parse("3.11"), "/usr/bin/python3.11");
    CHECK(image::packages_layer(locked, debian, 1700000000, oci::Compression::gzip)->cache_key != layer->cache_key);

    std::vector<lock::LockedPackage> packages = *locked.packages();
    packages.back().sha256 = std::string(64, 'f');
    lock::Lockfile changed = locked;
    changed.set_packages(packages);
    CHECK(image::packages_layer(changed, k_scheme, 1700000000, oci::Compression::gzip)->cache_key != layer->cache_key);
    changed.set_packages({});
    CHECK_FALSE(image::packages_layer(changed, k_scheme, 1700000000, oci::Compression::gzip));
    CHECK_FALSE(image::packages_layer(
        lock::Lockfile::parse(without, read_file(without)), k_scheme, 1700000000, oci::Compression::gzip));
}
