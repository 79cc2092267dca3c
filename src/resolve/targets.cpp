#include "resolve/targets.h"

#include "core/closest.h"
#include "core/error.h"

#include <algorithm>

namespace dlenv::resolve {
namespace {

// The segment every one of `gpus` has, if they agree.
std::optional<matrix::GpuSegment> shared_segment(const std::vector<const matrix::Gpu*>& gpus)
{
    if (gpus.empty())
        return std::nullopt;
    matrix::GpuSegment first = gpus.front()->segment;
    bool agree = std::all_of(gpus.begin(), gpus.end(), [&](const matrix::Gpu* gpu) { return gpu->segment == first; });
    return agree ? std::optional(first) : std::nullopt;
}

// The loader made sure a family's variants share their compute capability and segment.
std::optional<GpuTarget> family(const matrix::Matrix& matrix, std::string_view text)
{
    std::vector<const matrix::Gpu*> variants = matrix.gpu_family(text);
    if (variants.empty())
        return std::nullopt;
    const matrix::Gpu& first = *variants.front();
    return GpuTarget { first.family, first.compute_capability, nullptr, variants, first.segment };
}

} // namespace

GpuTarget resolve_gpu(const matrix::Matrix& matrix, std::string_view text)
{
    if (const auto* gpu = matrix.find_gpu(text))
        return { gpu->name, gpu->compute_capability, gpu, {}, gpu->segment };
    if (auto found = family(matrix, text))
        return *found;
    if (auto cc = ComputeCapability::try_parse(text)) {
        if (!matrix.architecture(*cc)) {
            std::vector<std::string> known;
            for (const auto& arch : matrix.architectures())
                known.push_back(arch.compute_capability.text());
            throw Error(ErrorCode::invalid_input, "unknown compute capability " + cc->text(),
                "known: " + join_alternatives(known, " and "));
        }
        return { cc->sm_name(), *cc, nullptr, {}, shared_segment(matrix.gpus_of(*cc)) };
    }
    auto near = closest_matches(text, matrix.gpu_names(), 3);
    throw Error(ErrorCode::invalid_input, "unknown GPU '" + std::string(text) + "'",
        near.empty() ? "name a model (e.g. \"RTX 4090\", \"A100 80GB SXM4\") or a compute capability (sm_89)"
                     : "did you mean " + join_alternatives(near) + "?");
}

} // namespace dlenv::resolve
