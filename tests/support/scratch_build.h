#pragma once

#include "core/file.h"
#include "image/builder.h"
#include "matrix/matrix.h"
#include "resolve/profile.h"
#include "support/scratch.h"
#include "workflow/build_into_store.h"
#include "workflow/lock_profile.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

// The lock, at DIR/app.lock.json, of the shipped pytorch-2.1-cu118 profile on the scratch
// base with DIR/train.py (holding `train`) pinned at /app/train.py, whose promotion requires `tiers`.
inline std::string scratch_lock(
    const Scratch& scratch, const std::vector<std::string>& tiers, const std::string& train = "print('train')\n")
{
    nlohmann::json profile
        = nlohmann::json::parse(dlenv::read_file(std::string(DLENV_SOURCE_DIR) + "/profiles/pytorch-2.1-cu118.json"));
    profile["base_image"] = "scratch";
    profile.erase("packages"); // its python_runtime: nothing on scratch runs Python
    profile["files"] = { { { "source", "train.py" }, { "target", "/app/train.py" }, { "mode", "0755" } } };
    profile["validation"] = { { "tiers", tiers } };
    dlenv::write_file_atomic(scratch / "train.py", train);
    dlenv::write_file_atomic(scratch / "profile.json", profile.dump());
    dlenv::workflow::LockRequest request;
    request.profile = dlenv::resolve::load_profile((scratch / "profile.json").string());
    request.output = (scratch / "app.lock.json").string();
    request.offline = true;
    REQUIRE(dlenv::workflow::lock_profile(dlenv::matrix::Matrix::embedded(), request).lockfile);
    return request.output;
}

// The image `lockfile` describes, built as `app` into the store at DIR/store at `time`.
inline dlenv::image::BuildResult build_scratch_image(
    const Scratch& scratch, const std::string& lockfile, std::int64_t time = 1700000000)
{
    dlenv::workflow::BuildIntoStoreRequest request;
    request.store_dir = scratch / "store";
    request.clock = [time] { return time; };
    dlenv::image::BuildRequest build
        = dlenv::image::prepare_build(lockfile, "app", "", dlenv::oci::Compression::gzip, request.store_dir);
    return dlenv::workflow::build_into_store(build, request, dlenv::matrix::Matrix::embedded());
}
