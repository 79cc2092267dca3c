#include "resolve/report.h"

#include <algorithm>

namespace dlenv::resolve {

std::string_view to_string(Severity severity)
{
    switch (severity) {
    case Severity::info: return "info";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
    }
    return "unknown";
}

std::string_view verdict_name(Severity verdict)
{
    return verdict == Severity::info ? "ok" : to_string(verdict);
}

Severity Report::verdict() const
{
    Severity worst = Severity::info;
    for (const auto& finding : findings)
        worst = std::max(worst, finding.severity);
    return worst;
}

void Report::add(Severity severity, std::string code, std::string message, std::string source, std::string gpu)
{
    findings.push_back({severity, std::move(code), std::move(message), std::move(source), std::move(gpu)});
}

void Report::suggest(std::string suggestion)
{
    if (std::find(suggestions.begin(), suggestions.end(), suggestion) == suggestions.end())
        suggestions.push_back(std::move(suggestion));
}

nlohmann::json Report::to_json() const
{
    nlohmann::json findings_json = nlohmann::json::array();
    for (const auto& f : findings) {
        nlohmann::json item = {{"severity", to_string(f.severity)},
                               {"code", f.code},
                               {"message", f.message},
                               {"source", f.source}};
        if (!f.gpu.empty())
            item["gpu"] = f.gpu;
        findings_json.push_back(std::move(item));
    }
    return {{"verdict", verdict_name(verdict())}, {"findings", findings_json}, {"suggestions", suggestions}};
}

} // namespace dlenv::resolve
