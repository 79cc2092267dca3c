#include "workflow/host_facts.h"

#include "core/error.h"
#include "resolve/driver_branch.h"

namespace dlenv::workflow {

HostFacts host_facts(const HostRequest& request, const matrix::Matrix& matrix)
{
    HostFacts host { {}, request.driver, request.gpus };
    if (request.driver_branch)
        host.driver = resolve::branch_driver(matrix, *request.driver_branch).newest;
    if (!request.detect)
        return host;
    std::optional<host::DriverFacts> detected = request.detect();
    if (!detected)
        throw Error(ErrorCode::environment, "--host found no NVIDIA driver (neither NVML nor nvidia-smi answered)",
            "run on the GPU machine, or pass --driver and --gpu by hand");
    if (!host.driver)
        host.driver = detected->driver;
    for (const auto& gpu : detected->gpus) {
        // The matrix keys its rules by model; a model it does not know still has a
        // compute capability the rules can check.
        if (matrix.find_gpu(gpu.name))
            host.gpus.push_back(gpu.name);
        else if (gpu.compute_capability)
            host.gpus.push_back(gpu.compute_capability->text());
    }
    return host;
}

} // namespace dlenv::workflow
