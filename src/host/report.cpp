#include "host/report.h"

#include <cmath>
#include <cstdio>

namespace dlenv::host {

std::string number_text(double value)
{
    double rounded = std::round(value * 10) / 10;
    char text[64];
    std::snprintf(text, sizeof text, rounded == std::floor(rounded) ? "%.0f" : "%.1f", rounded);
    return text;
}

nlohmann::json to_json(const std::vector<Finding>& findings)
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto& f : findings) {
        nlohmann::json item = { { "check", f.code }, { "verdict", to_string(f.verdict) }, { "message", f.message },
            { "value", f.value }, { "threshold", f.threshold }, { "why", f.why } };
        if (!f.subject.empty())
            item["subject"] = f.subject;
        if (f.measured) {
            item["measured"] = *f.measured;
            item["unit"] = f.unit;
        }
        list.push_back(std::move(item));
    }
    return { { "format", "dlenv.doctor/v1" }, { "verdict", to_string(worst_verdict(findings)) }, { "findings", list } };
}

} // namespace dlenv::host
