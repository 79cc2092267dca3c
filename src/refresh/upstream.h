#pragma once

#include "http/client.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace dlenv::refresh {

// Where the vendors publish what the matrices are refreshed from. Each URL ends in '/'.
struct Upstream {
    std::string pytorch_index = "https://download.pytorch.org/whl/"; // a PEP 503 root: torch/ under it
    std::string pypi = "https://pypi.org/pypi/"; // NAME/json under it
    std::string cuda_redist = "https://developer.download.nvidia.com/compute/cuda/redist/"; // redistrib_X.Y.Z.json

    // The same paths under one other origin ("http://127.0.0.1:8000"): a replica laid out
    // as the vendors' servers are, at whl/, pypi/ and compute/cuda/redist/.
    static Upstream under(std::string_view base);
};

// The largest document a vendor's page may be: a redistrib manifest is some 100 KB, a PyPI
// project document a few MB.
constexpr std::size_t k_max_document_bytes = 32 * 1024 * 1024;

// GETs `url`: its body, or nullopt when the server answers 404. Throws Error(network) for
// another status or a dropped connection, and Error(invalid_input) naming the URL for a
// body past k_max_document_bytes.
std::optional<std::string> get_document(const http::Client& client, const std::string& url);

} // namespace dlenv::refresh
