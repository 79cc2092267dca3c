#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace dlenv::resolve {

enum class Severity { info, warning, error };
std::string_view to_string(Severity severity);

// One conclusion a rule reached, with the fact it rests on.
struct Finding {
    Severity severity;
    std::string code;    // stable, for scripts: "driver-minor-version-compat"
    std::string message; // what and why, in one sentence or two
    std::string source;  // URL(s) of the facts used
    std::string gpu;     // the GPU it is about, if any
};

// Everything `check` has to say: findings, and choices that would work instead.
struct Report {
    std::vector<Finding> findings;
    std::vector<std::string> suggestions;

    Severity verdict() const; // the worst finding; info when there is none
    void add(Severity severity, std::string code, std::string message, std::string source, std::string gpu = {});
    void suggest(std::string suggestion);

    // {"verdict": "ok"|"warning"|"error", "findings": [...], "suggestions": [...]}
    nlohmann::json to_json() const;
};

std::string_view verdict_name(Severity verdict); // "ok", "warning", "error"

} // namespace dlenv::resolve
