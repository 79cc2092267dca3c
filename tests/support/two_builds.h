#pragma once

#include "store/store.h"
#include "store/verifications.h"
#include "support/scratch.h"
#include "support/scratch_build.h"

#include <filesystem>
#include <string>

// Two builds of `app` into DIR/store: the first (then app:rollback) with a static pass on
// record and its lock kept at DIR/first.lock.json, the second (app:latest) with another
// /app/train.py.
struct TwoBuilds {
    dlenv::image::BuildResult first;
    dlenv::image::BuildResult second;
    std::string first_lock;
};

inline TwoBuilds two_builds(const Scratch& scratch)
{
    std::string lock = scratch_lock(scratch, { "static" });
    dlenv::image::BuildResult first = build_scratch_image(scratch, lock);
    std::string first_lock = (scratch / "first.lock.json").string();
    std::filesystem::copy_file(lock, first_lock);
    {
        dlenv::store::Store store = dlenv::store::Store::open_for_writing(scratch / "store");
        dlenv::store::record_verification(
            store, first.manifest.digest, { { "static", true, "2026-01-01T00:00:00Z", {} } });
    }
    dlenv::image::BuildResult second
        = build_scratch_image(scratch, scratch_lock(scratch, { "static" }, "print('train, again')\n"));
    return { std::move(first), std::move(second), first_lock };
}
