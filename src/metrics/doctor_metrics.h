#pragma once

#include "core/finding.h"
#include "metrics/exposition.h"

#include <vector>

namespace dlenv::metrics {

// The doctor's findings as gauges:
// - dlenv_doctor_check{check, subject?, verdict}: a state set, one sample per verdict
//   (unknown, ok, warn, fail), 1 for the verdict the check reached and 0 for the others, so
//   that `dlenv_doctor_check{verdict="fail"} == 1` selects the failed checks. `subject` is
//   the finding's (the GPU of a per-GPU check); findings of one check without a subject are
//   told apart by their value (the gpu check's model).
// - dlenv_doctor_verdict{verdict}: the same state set for the worst verdict of them all.
// - dlenv_doctor_measured_<unit>{check, subject?}: what a check measured, in base units where
//   the finding's unit has one (GiB -> _bytes, MB/s and Gb/s -> _bytes_per_second,
//   C -> _celsius), else its unit lowercased (_cores, _gpus, _lanes, _errors, _links).
std::vector<Family> doctor_families(const std::vector<Finding>& findings);

} // namespace dlenv::metrics
