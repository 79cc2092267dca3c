#include "refresh/published.h"

#include "core/error.h"
#include "pypi/simple_index.h"
#include "refresh/pypi_releases.h"

#include <algorithm>

namespace dlenv::refresh {
namespace {

bool matrix_has_variant(const matrix::Matrix& matrix, const std::string& line, const std::string& tag)
{
    for (const auto& release : matrix.torch_releases())
        if (release.line == line)
            return std::any_of(release.variants.begin(), release.variants.end(),
                [&](const matrix::TorchVariant& v) { return v.tag == tag; });
    return false;
}

} // namespace

const std::vector<std::string>& pypi_projects()
{
    static const std::vector<std::string> projects { "tensorflow", "jax", "jaxlib", "nvidia-cudnn-cu11",
        "nvidia-cudnn-cu12", "nvidia-cudnn-cu13" };
    return projects;
}

Published read_published(const matrix::Matrix& matrix, const Upstream& upstream)
{
    Published out { upstream, {}, {}, {} };
    pypi::SimpleIndex index(upstream.pytorch_index, {}, http::RetryPolicy { .retry_refused = false },
        { .page_bytes = upstream.limits.torch_index, .metadata_bytes = upstream.limits.wheel_metadata });
    out.torch = read_torch_index(index);
    for (auto& line : out.torch)
        for (auto& [tag, variant] : line.variants)
            if (variant.metadata_wheel && !matrix_has_variant(matrix, line.line, tag)) {
                variant.pins = nvidia_pins(index.metadata(*variant.metadata_wheel));
                variant.pins_url = variant.metadata_wheel->url + ".metadata";
            }
    http::Client client;
    out.cuda = unknown_cuda_releases(matrix, client, upstream.cuda_redist, upstream.limits.redist_manifest);
    for (const auto& project : pypi_projects())
        out.pypi[project] = pypi_releases(client, upstream.pypi, project, upstream.limits.pypi_project);
    return out;
}

} // namespace dlenv::refresh
