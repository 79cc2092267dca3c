#include "cli/artifacts_output.h"

namespace dlenv::cli {

nlohmann::json artifacts_json(const std::vector<image::FetchedArtifact>& artifacts)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& fetched : artifacts)
        out.push_back(
            { { "name", fetched.artifact.name }, { "url", fetched.artifact.url }, { "sha256", fetched.artifact.sha256 },
                { "bytes", fetched.bytes }, { "state", fetched.cached ? "cached" : "fetched" } });
    return out;
}

std::string describe_artifacts(const std::vector<image::FetchedArtifact>& artifacts)
{
    std::size_t fetched = 0, cached = 0;
    std::int64_t fetched_bytes = 0, cached_bytes = 0;
    for (const auto& artifact : artifacts) {
        (artifact.cached ? cached : fetched) += 1;
        (artifact.cached ? cached_bytes : fetched_bytes) += artifact.bytes;
    }
    return std::to_string(fetched) + " fetched (" + std::to_string(fetched_bytes) + " bytes), " + std::to_string(cached)
        + " already in the store (" + std::to_string(cached_bytes) + " bytes)";
}

} // namespace dlenv::cli
