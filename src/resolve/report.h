#pragma once

#include "core/finding.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace dlenv::resolve {

// Everything `check` has to say: findings (ok, warn or fail; `why` holds the URL(s) of the
// facts used, `subject` the GPU a finding is about), and choices that would work instead.
struct Report {
    std::vector<Finding> findings;
    std::vector<std::string> suggestions;

    Verdict verdict() const; // the worst finding; ok when there is none
    void add(Verdict verdict, std::string code, std::string message, std::string source, std::string gpu = {});
    void suggest(std::string suggestion);

    // {"verdict": "ok"|"warning"|"error", "findings": [{"severity", "code", "message",
    // "source", "gpu"?}...], "suggestions": [...]}
    nlohmann::json to_json() const;
};

std::string_view severity_name(Verdict verdict); // a finding's: "info", "warning", "error"
std::string_view verdict_name(Verdict verdict); // a report's or a GPU's: "ok", "warning", "error"

} // namespace dlenv::resolve
