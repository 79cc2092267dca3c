#include "core/file.h"
#include "store/fsck.h"
#include "store/gc.h"
#include "store/store.h"
#include "support/scratch.h"
#include "support/store_images.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

// What writers killed half-way leave: a temporary file beside each kind of file dlenv
// writes atomically, and a staging directory.
const std::vector<std::string> k_leftovers
    = { ".index.json.tmp-Ab12Cd", "dlenv/.refs.json.tmp-Xy34Zw", "blobs/sha256/.blob.tmp-Qw12Er",
          "dlenv/artifacts/sha256/.0123.tmp-Zx98Cv", "dlenv/verifications/.sha256-0123.json.tmp-Mn12Bv",
          "dlenv/layers/.0123.json.tmp-Lk09Jh", "dlenv/staging/layer-Po76Iu/usr/bin/tool" };

// Files beside them that are not dlenv's.
const std::vector<std::string> k_others = { "notes.txt", ".hidden", "dlenv/.refs.json.tmp-short" };

void make_files(const Scratch& dir, const std::vector<std::string>& files)
{
    for (const auto& file : files)
        write_file_atomic(dir / file, "partial");
}

std::vector<std::string> existing(const Scratch& dir, const std::vector<std::string>& files)
{
    std::vector<std::string> out;
    for (const auto& file : files)
        if (std::filesystem::exists(dir / file))
            out.push_back(file);
    return out;
}

} // namespace

TEST_CASE("fsck notes what killed writers left, and the next writer removes it", "[store]")
{
    Scratch dir;
    {
        store::Store store = store::Store::open_for_writing(dir.dir());
        add_build(store, "app", "a", 1);
    }
    make_files(dir, k_leftovers);
    make_files(dir, k_others);
    {
        store::Store reader = store::Store::open(dir.dir());
        store::FsckReport report = store::check_store(reader);
        CHECK(report.ok());
        CHECK(report.notes
            == std::vector<std::string> { "6 temporary file(s) and 1 staging directory(ies) from interrupted "
                                          "writes; the next build, promote, rollback or gc removes them" });
    }
    store::Store store = store::Store::open_for_writing(dir.dir());
    CHECK(existing(dir, k_leftovers).empty());
    CHECK(existing(dir, k_others) == k_others);
    CHECK(store::check_store(store).notes.empty());
}

TEST_CASE("gc removes the temporary refs.json and index.json a killed writer left", "[store]")
{
    Scratch dir;
    {
        store::Store store = store::Store::open_for_writing(dir.dir());
        add_build(store, "app", "a", 1);
    }
    make_files(dir, { ".index.json.tmp-Ab12Cd", "dlenv/.refs.json.tmp-Xy34Zw" });
    store::Store store = store::Store::open_for_writing(dir.dir());
    store::collect_garbage(store, 10);
    CHECK(existing(dir, { ".index.json.tmp-Ab12Cd", "dlenv/.refs.json.tmp-Xy34Zw" }).empty());
}
