#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv {

// How a finding came out. Declared from least to most severe, so the greater of two is
// the worse: `unknown` (the fact could not be established here: no GPU, a check that did
// not apply) says nothing against the machine or the image and ranks below `ok`.
enum class Verdict { unknown, ok, warn, fail };

// The enum's own names: "unknown", "ok", "warn", "fail". Each report format that spells
// verdicts otherwise (resolve's "info"/"warning"/"error", verify's "pass"/"fail"/"skip")
// keeps its own naming function beside its JSON.
std::string_view to_string(Verdict verdict);

// One conclusion a check or a rule reached: what it says, what it rests on, and, where
// something was measured, the measurement against the threshold it was held to.
struct Finding {
    std::string code {}; // stable, for scripts and tests: "driver-minor-version-compat", "swap"
    Verdict verdict = Verdict::unknown;
    std::string message {}; // what and why, for people, in a sentence or two
    std::string why {}; // what the finding rests on: the facts' source URLs, or why the check matters
    std::string subject {}; // what it is about when a report covers several: the GPU; empty otherwise
    std::string value {}; // what was measured, as text; empty when nothing was
    std::string threshold {}; // what the check wants; empty when it has no threshold
    std::optional<double> measured {}; // the value as a number, in `unit`
    std::string unit {};
};

// The worst verdict among `findings`: fail over warn over ok; unknown counts as ok, and
// no findings at all are ok.
Verdict worst_verdict(const std::vector<Finding>& findings);

} // namespace dlenv
