#pragma once

#include "core/host_facts.h"
#include "core/version.h"
#include "host/gpu_probe.h"
#include "matrix/matrix.h"
#include "resolve/stack.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::workflow {

// Asks the machine for its driver and GPUs: host::probe_driver, or a stand-in.
using DriverProbe = std::function<std::optional<host::DriverFacts>()>;

// The host a lock is checked against, as `dlenv lock` is told it.
struct HostRequest {
    std::optional<DriverVersion> driver; // given by hand (--driver)
    std::vector<std::string> gpus; // given by hand (--gpu): models, or X.Y
    DriverProbe detect; // set: also ask this machine (--host)
    std::optional<std::uint32_t> driver_branch {}; // given by hand as its branch (--driver 535)
};

// The given driver (a branch's newest release on record, for a branch) and GPUs and, when
// `detect` is set, what it finds: its driver unless one was given, and its GPUs after the given ones, each named by its
// model where `matrix` knows the model, else by its compute capability (one with neither is left out).
// Error(environment) when `detect` finds no driver.
HostFacts host_facts(const HostRequest& request, const matrix::Matrix& matrix);

} // namespace dlenv::workflow
