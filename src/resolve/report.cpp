#include "resolve/report.h"

#include <algorithm>

namespace dlenv::resolve {

std::string_view severity_name(Verdict verdict)
{
    switch (verdict) {
    case Verdict::ok:
        return "info";
    case Verdict::warn:
        return "warning";
    case Verdict::fail:
        return "error";
    case Verdict::unknown:
        return "unknown";
    }
    return "unknown";
}

std::string_view verdict_name(Verdict verdict)
{
    return verdict == Verdict::ok ? "ok" : severity_name(verdict);
}

Verdict Report::verdict() const
{
    return worst_verdict(findings);
}

void Report::add(Verdict verdict, std::string code, std::string message, std::string source, std::string gpu)
{
    findings.push_back({ std::move(code), verdict, std::move(message), std::move(source), std::move(gpu) });
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
        nlohmann::json item = { { "severity", severity_name(f.verdict) }, { "code", f.code }, { "message", f.message },
            { "source", f.why } };
        if (!f.subject.empty())
            item["gpu"] = f.subject;
        findings_json.push_back(std::move(item));
    }
    return { { "verdict", verdict_name(verdict()) }, { "findings", findings_json }, { "suggestions", suggestions } };
}

} // namespace dlenv::resolve
