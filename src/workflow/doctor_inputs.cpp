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

} // namespace dlenv::workflow
