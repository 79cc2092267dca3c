#include "resolve/targets.h"

#include "core/closest.h"
#include "core/error.h"

namespace dlenv::resolve {

GpuTarget resolve_gpu(const matrix::Matrix& matrix, std::string_view text)
{
    if (const auto* gpu = matrix.find_gpu(text))
        return {gpu->name, gpu->compute_capability, gpu};
    if (auto cc = ComputeCapability::try_parse(text)) {
        if (!matrix.architecture(*cc)) {
            std::vector<std::string> known;
            for (const auto& arch : matrix.architectures())
                known.push_back(arch.compute_capability.text());
            throw Error(ErrorCode::invalid_input, "unknown compute capability " + cc->text(),
                        "known: " + join_alternatives(known, " and "));
        }
        return {cc->sm_name(), *cc, nullptr};
    }
    auto near = closest_matches(text, matrix.gpu_names(), 3);
    throw Error(ErrorCode::invalid_input, "unknown GPU '" + std::string(text) + "'",
                near.empty() ? "name a model (e.g. \"RTX 4090\", \"A100 80GB SXM4\") or a compute capability (sm_89)"
                             : "did you mean " + join_alternatives(near) + "?");
}

} // namespace dlenv::resolve
