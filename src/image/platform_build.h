#pragma once

#include "image/builder.h"
#include "oci/descriptor.h"
#include "store/store.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace dlenv::image {

// Builds the image of each platform of a lock of several, with `build` (which writes the
// blobs and manifest and records nothing), from the request as each platform reads it:
// the lock's view for that platform (lock::Lockfile::for_platform), a registry base by
// that platform's pinned manifest, a layout's index by that platform's manifest. Then
// writes the OCI image index over the manifests, each descriptor with its platform, in
// the lock's order. Returns the results merged, `manifest` the index's: equal locks give
// equal index digests. Errors are the builds', with the context "platform linux/arm64".
BuildResult build_platforms(
    const BuildRequest& request, const std::function<BuildResult(const BuildRequest&)>& build, store::Store& store);

// Error(invalid_input) when a base's config names an os or architecture other than
// `platform`'s; a config that names none passes.
void check_base_architecture(const nlohmann::json& config, const oci::Platform& platform, const std::string& base);

} // namespace dlenv::image
