#pragma once

#include "host/doctor.h"
#include "matrix/matrix.h"

#include <string>

namespace dlenv::workflow {

// What host::diagnose is told by the lock and the matrix, which host knows nothing of.

// The driver floor of the lock in `lockfile` (its stack's driver minimums and whether
// it relies on cuda-compat), named by `lockfile` in the findings. Errors are those of
// reading the file and of lock::Lockfile::parse (a digest that does not match included).
host::DriverFloor driver_floor(const std::string& lockfile);

// Looks GPU models up in `matrix` (which must outlive the lookup) by the name the
// driver reports; nullopt for a model it does not know.
host::GpuLookup gpu_lookup(const matrix::Matrix& matrix);

} // namespace dlenv::workflow
