#pragma once

#include "host/doctor.h"
#include "matrix/matrix.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace dlenv::workflow {

// What host::diagnose is told by the lock and the matrix, which host knows nothing of.

// The driver floor of the lock in `lockfile` (its stack's driver minimums and whether
// it relies on cuda-compat), named by `lockfile` in the findings. Errors are those of
// reading the file and of lock::Lockfile::parse (a digest that does not match included).
host::DriverFloor driver_floor(const std::string& lockfile);

// Looks GPU models up in `matrix` (which must outlive the lookup) by the name the
// driver reports; nullopt for a model it does not know.
host::GpuLookup gpu_lookup(const matrix::Matrix& matrix);

// What `dlenv doctor` (and `dlenv metrics`) ask of this machine.
struct DoctorRequest {
    std::string lock; // check the driver against this lockfile's floor; empty: no lock
    std::filesystem::path data_dir = "."; // whose read speed to measure
    std::uint64_t read_bytes = 256u << 20;
};

// Probes this machine (host::probe_host) and diagnoses it against the lock's floor and
// the GPUs `matrix` knows. The errors of driver_floor and probe_host.
std::vector<Finding> diagnose_this_host(const DoctorRequest& request, const matrix::Matrix& matrix);

} // namespace dlenv::workflow
