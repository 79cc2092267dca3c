#pragma once

#include "lock/validation.h"
#include "matrix/matrix.h"
#include "verify/kit_run.h"
#include "verify/report.h"

namespace dlenv::verify {

// Adds a kit's output to `tier`: its findings as they are, its figures as report
// figures named gpu<N>_<name> (raw, no threshold), and per device the fractions of the
// matrix's spec for that model: gpu<N>_bandwidth_fraction (memory_bandwidth over
// bandwidth_gb_s) and gpu<N>_gemm_fp16_fraction / _bf16_fraction (gemm_fp16/bf16 over
// the dense tensor peak), each held to its threshold by a finding `bandwidth` or
// `gemm-throughput` that fails under the threshold and names the measured figure, the
// spec and the threshold. A model the matrix does not know, or knows no spec for, or a
// figure in another unit than the spec's (GB/s, TFLOPS) gives a skip finding saying so:
// the figure stays, without a fraction.
void evaluate_kit_output(
    const KitOutput& output, const matrix::Matrix& matrix, const lock::Thresholds& thresholds, TierReport& tier);

} // namespace dlenv::verify
