#pragma once

#include "core/finding.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace dlenv::host {

// The doctor's findings are core's `Finding`: `code` is the check ("cpu_cores_per_gpu"),
// `why` says why a training box needs it, `value` and `threshold` say what was measured
// against what, and `verdict` is ok, warn, fail or unknown (the fact could not be measured
// here: no GPU, no topology), spelled as core spells it.

// A number as findings print it: rounded to one decimal, without ".0": 4, 1.5, 23.5.
std::string number_text(double value);

// {"findings": [{"check", "verdict", "message", "value", "threshold", "why", "subject"? (the
// GPU of a per-GPU check), "measured"?, "unit"?}...], "format": "dlenv.doctor/v1", "verdict"}: findings in check order,
// the verdict the worst of them.
nlohmann::json to_json(const std::vector<Finding>& findings);

} // namespace dlenv::host
