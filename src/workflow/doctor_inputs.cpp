#include "workflow/doctor_inputs.h"

#include "core/file.h"
#include "lock/lockfile.h"

namespace dlenv::workflow {

host::DriverFloor driver_floor(const std::string& lockfile)
{
    const lock::LockedStack stack = lock::Lockfile::parse(lockfile, read_file(lockfile)).stack();
    return { lockfile, stack.toolkit_driver, stack.minor_version_driver, stack.forward_compat };
}

host::GpuLookup gpu_lookup(const matrix::Matrix& matrix)
{
    return [&matrix](const std::string& name) -> std::optional<host::GpuSpec> {
        const matrix::Gpu* gpu = matrix.find_gpu(name);
        if (!gpu)
            return std::nullopt;
        return host::GpuSpec { gpu->name, gpu->compute_capability, gpu->architecture, gpu->memory_gb, gpu->memory_type,
            gpu->bandwidth_gb_s };
    };
}

std::vector<Finding> diagnose_this_host(const DoctorRequest& request, const matrix::Matrix& matrix)
{
    std::optional<host::DriverFloor> floor;
    if (!request.lock.empty())
        floor = driver_floor(request.lock);
    host::HostState state = host::probe_host({ "/", request.data_dir, request.read_bytes });
    return host::diagnose(state, floor, gpu_lookup(matrix));
}

} // namespace dlenv::workflow
