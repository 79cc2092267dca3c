#include "lock/locked_stack.h"

namespace dlenv::lock {

LockedStack read_locked_stack(const JsonReader& stack)
{
    JsonReader framework = stack.at("framework");
    JsonReader driver = stack.at("driver");
    LockedStack out { framework.at("name").string(), framework.at("local_version").string(),
        stack.at("cuda").as<CudaVersion>(), stack.optional_as<CudnnVersion>("cudnn"),
        stack.optional_as<NcclVersion>("nccl"), stack.at("python").as<PythonVersion>(),
        driver.at("toolkit_min").as<DriverVersion>(), driver.optional_as<DriverVersion>("minor_version_min"),
        driver.at("forward_compat").boolean(), {} };
    for (const auto& item : stack.at("arch_list").items())
        out.arch_list.push_back(item.as<ComputeCapability>());
    return out;
}

} // namespace dlenv::lock
