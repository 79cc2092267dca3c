#pragma once

#include "http/client.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace dlenv::refresh {

// The most bytes each page a refresh reads may have, well above what the vendors serve, so
// a wrong or hostile server cannot fill memory: a larger page is refused naming its URL
// and the limit.
struct DocumentLimits {
    std::size_t torch_index = 256 * 1024 * 1024; // the torch wheel page: every wheel of every release
    std::size_t wheel_metadata = 4 * 1024 * 1024; // a wheel's METADATA: tens of KB
    std::size_t pypi_project = 64 * 1024 * 1024; // a PyPI JSON project document: a few MB
    std::size_t redist_manifest = 4 * 1024 * 1024; // a redistrib manifest: some 100 KB
};

// Where the vendors publish what the matrices are refreshed from. Each URL ends in '/'.
struct Upstream {
    std::string pytorch_index = "https://download.pytorch.org/whl/"; // a PEP 503 root: torch/ under it
    std::string pypi = "https://pypi.org/pypi/"; // NAME/json under it
    std::string cuda_redist = "https://developer.download.nvidia.com/compute/cuda/redist/"; // redistrib_X.Y.Z.json
    DocumentLimits limits;

    // The same paths under one other origin ("http://127.0.0.1:8000"): a replica laid out
    // as the vendors' servers are, at whl/, pypi/ and compute/cuda/redist/.
    static Upstream under(std::string_view base);
};

// GETs `url`: its body, or nullopt when the server answers 404. Throws Error(network) for
// another status or a dropped connection, and Error(invalid_input) naming the URL and the
// limit for a body past `max_bytes`.
std::optional<std::string> get_document(const http::Client& client, const std::string& url, std::size_t max_bytes);

} // namespace dlenv::refresh
