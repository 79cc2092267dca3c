#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::host {

// How a check came out. `unknown` means the fact could not be measured here (no GPU, no
// topology), which is not a failure of the machine.
enum class Verdict { ok, warn, fail, unknown };
std::string_view to_string(Verdict verdict);

// One answer of the doctor: what was measured, against what, and why it matters.
struct Finding {
    std::string check;     // stable identifier: "cpu_cores_per_gpu"
    Verdict verdict = Verdict::unknown;
    std::string message;   // one line a person reads: "4 CPU cores per GPU, fewer than 8: ..."
    std::string value;     // what was measured, as text; empty when nothing could be
    std::string threshold; // what the check wants; empty when it has no threshold
    std::string why;       // why a training box needs this
    std::optional<double> measured; // the value as a number, in `unit`
    std::string unit;
};

// A number as findings print it: rounded to one decimal, without ".0": 4, 1.5, 23.5.
std::string number_text(double value);

// The worst verdict among `findings`: fail over warn over ok; unknown counts as ok.
Verdict overall(const std::vector<Finding>& findings);

// {"findings": [{"check", "verdict", "message", "value", "threshold", "why", "measured"?,
// "unit"?}...], "format": "dlenv.doctor/v1", "verdict"}: findings in check order.
nlohmann::json to_json(const std::vector<Finding>& findings);

} // namespace dlenv::host
