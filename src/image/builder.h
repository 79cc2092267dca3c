#pragma once

#include "image/base_image.h"
#include "image/base_python.h"
#include "image/fetch.h"
#include "image/layer_plan.h"
#include "lock/lockfile.h"
#include "matrix/matrix.h"
#include "oci/compression.h"
#include "oci/descriptor.h"
#include "store/records.h"
#include "store/store.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::image {

// A build, checked before the store is touched: the lock read and verified, the image
// name valid, the base image found.
struct BuildRequest {
    lock::Lockfile lock;
    std::string name;
    BaseSource base;
    // The files checked against their sha256; the packages' layer is not among them, as
    // build_image plans it once the base is read.
    std::vector<PlannedLayer> layers;
    oci::Compression compression = oci::Compression::gzip;
    std::int64_t source_date_epoch = 0;
    bool insecure_registry = false; // the base's registry may be plain HTTP or unverified
    FetchOptions fetch; // for the artifacts the store does not have yet
};

// Reads and checks everything a build needs without writing anything. `name` and
// `base` override the lock's profile name and base image when not empty. A lock that
// fails its digest or format, or names a base that is not there, is Error(invalid_input
// or not_found).
BuildRequest prepare_build(const std::filesystem::path& lockfile, const std::string& name, const std::string& base,
    oci::Compression compression, const std::filesystem::path& store_dir);

struct BuiltLayer {
    std::string created_by;
    oci::Descriptor descriptor;
    bool reused = false; // taken from the layer cache, not written again
};

struct BuildResult {
    std::string name;
    std::string lock_digest;
    oci::Descriptor manifest;
    std::vector<BuiltLayer> layers; // the layers dlenv added (the base's are not listed)
    std::vector<Finding> base_fit; // the framework against its base (check_base_fits); none failed
    // Where the packages went and why (packages_target); nullopt when the lock pins none.
    std::optional<PackagesTarget> packages;
    std::vector<std::string> system_packages; // what installing them did not do (SystemLayer's notes)
    std::vector<FetchedArtifact> fetched; // empty when every layer that reads artifacts was reused
    store::HistoryEntry history; // what moved
    // A lock of several platforms: `manifest` is the image index over these, each with its
    // platform, in the lock's order; `layers` and the rest are every platform's. Empty for one.
    std::vector<oci::Descriptor> platforms;
};

// Builds the image a lockfile describes into `store` (opened for writing): base image,
// the system packages' layer right above it when the lock pins any (system_layer.h; the
// Python they bring is then the base's for the packages layer), dlenv's layers (reused from the layer cache when their
// inputs did not change; when one that reads the lock's wheels or runtime must be written, fetch_artifacts brings what
// the store lacks first, so a store that has them needs no network), config and manifest; then `latest` moves to it and
// the previous latest becomes `rollback`, in one commit of the records. Blobs are written before the manifest, the
// manifest before the tags, so a kill at any point leaves the previous state intact. A base whose config says it cannot
// serve the lock's framework (check_base_fits) fails before any layer, and so does one whose Python cannot take the
// lock's packages (packages_target). Equal lockfiles give equal manifest digests, in any store, at any time. A lock of
// several platforms builds each (platform_build.h) and tags the index over them. `progress` hears each step.
BuildResult build_image(const BuildRequest& request, store::Store& store, const matrix::Matrix& matrix,
    std::int64_t now, const std::function<void(const std::string&)>& progress);

} // namespace dlenv::image
