#pragma once

#include "metrics/exposition.h"
#include "store/verifications.h"

#include <vector>

namespace dlenv::metrics {

// The store's verification records as gauges, one series per image digest and tier
// (labels `digest`, `tier`):
// - dlenv_verification_passed: 1 when the tier's latest run passed, else 0;
// - dlenv_verification_timestamp_seconds: when it ran; dlenv_verification_duration_seconds:
//   how long it took;
// - dlenv_verification_checks{outcome}: its findings by outcome (pass, fail, skip, warn);
// - dlenv_verification_host_info{kernel, driver, runtime}: where it ran, value 1;
// - per measured GPU (labels `gpu_index` and `gpu`, the model the host reported at that index):
//   dlenv_verification_memory_bandwidth_ratio and dlenv_verification_gemm_ratio{precision}, the
//   fractions of the matrix's spec the tier recorded (figures gpu<N>_bandwidth_fraction,
//   gpu<N>_gemm_<precision>_fraction);
// - the lock's thresholds they were held to: dlenv_verification_memory_bandwidth_min_ratio,
//   dlenv_verification_gemm_min_ratio.
// A fraction a tier records is a `_ratio` gauge named by a row of the figure table in the
// .cpp; a figure without a row is not exposed. A record whose report holds a field of the
// wrong type is Error(invalid_input) naming the image, the tier and the field.
std::vector<Family> verification_families(const std::vector<store::Verification>& records);

} // namespace dlenv::metrics
