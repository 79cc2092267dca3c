#include "core/finding.h"

#include <algorithm>

namespace dlenv {

std::string_view to_string(Verdict verdict)
{
    switch (verdict) {
    case Verdict::unknown:
        return "unknown";
    case Verdict::ok:
        return "ok";
    case Verdict::warn:
        return "warn";
    case Verdict::fail:
        return "fail";
    }
    return "unknown";
}

Verdict worst_verdict(const std::vector<Finding>& findings)
{
    Verdict worst = Verdict::ok;
    for (const auto& finding : findings)
        worst = std::max(worst, finding.verdict);
    return worst;
}

} // namespace dlenv
