#pragma once

#include "core/version.h"
#include "http/client.h"
#include "matrix/matrix.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::refresh {

// What one of NVIDIA's redistrib_X.Y.Z.json manifests says of its toolkit release.
struct PublishedCudaRelease {
    CudaVersion version; // release_label: 12.4.1
    std::string url;
    std::string release_date; // "2024-04-09"
    // The Linux driver the release bundles (the nvidia_driver component); none when the
    // manifest carries none. Not the release's minimum driver: that stays a hand row.
    std::optional<DriverVersion> bundled_driver;
};

// Reads a manifest. Throws Error(invalid_input) naming `url` and the field when it is not
// one, or when its release_label is not `expected`.
PublishedCudaRelease parse_redistrib(const std::string& body, const std::string& url, const CudaVersion& expected);

// The toolkit releases NVIDIA publishes a manifest for that `matrix` has no row of, found
// without a list of them: after the newest release the matrix knows of each X.Y line, the
// next updates (X.Y.Z+1, ...), and after the newest line the next minor and major lines,
// each until the server answers 404. Oldest first. A manifest past `max_bytes` is refused.
std::vector<PublishedCudaRelease> unknown_cuda_releases(
    const matrix::Matrix& matrix, const http::Client& client, const std::string& redist_url, std::size_t max_bytes);

} // namespace dlenv::refresh
