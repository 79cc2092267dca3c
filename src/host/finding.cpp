#include "host/finding.h"

#include <cmath>
#include <cstdio>

namespace dlenv::host {

std::string_view to_string(Verdict verdict)
{
    switch (verdict) {
    case Verdict::ok: return "ok";
    case Verdict::warn: return "warn";
    case Verdict::fail: return "fail";
    case Verdict::unknown: return "unknown";
    }
    return "unknown";
}

std::string number_text(double value)
{
    double rounded = std::round(value * 10) / 10;
    char text[64];
    std::snprintf(text, sizeof text, rounded == std::floor(rounded) ? "%.0f" : "%.1f", rounded);
    return text;
}

Verdict overall(const std::vector<Finding>& findings)
{
    Verdict worst = Verdict::ok;
    for (const auto& f : findings) {
        if (f.verdict == Verdict::fail)
            return Verdict::fail;
        if (f.verdict == Verdict::warn)
            worst = Verdict::warn;
    }
    return worst;
}

nlohmann::json to_json(const std::vector<Finding>& findings)
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto& f : findings) {
        nlohmann::json item = {{"check", f.check},         {"verdict", to_string(f.verdict)},
                               {"message", f.message},     {"value", f.value},
                               {"threshold", f.threshold}, {"why", f.why}};
        if (f.measured) {
            item["measured"] = *f.measured;
            item["unit"] = f.unit;
        }
        list.push_back(std::move(item));
    }
    return {{"format", "dlenv.doctor/v1"}, {"verdict", to_string(overall(findings))}, {"findings", list}};
}

} // namespace dlenv::host
