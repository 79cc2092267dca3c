#include "metrics/doctor_metrics.h"

#include <algorithm>
#include <array>

namespace dlenv::metrics {
namespace {

constexpr std::array k_verdicts = { Verdict::unknown, Verdict::ok, Verdict::warn, Verdict::fail };

struct Unit {
    std::string_view finding; // the finding's unit
    std::string_view suffix; // the metric name's
    double scale; // to the metric's unit
    std::string_view words; // for the help text
};

// Prometheus wants base units: bytes, seconds, degrees Celsius.
constexpr std::array k_units = {
    Unit { "GiB", "bytes", 1024.0 * 1024 * 1024, "bytes" },
    Unit { "MB/s", "bytes_per_second", 1e6, "bytes per second" },
    Unit { "Gb/s", "bytes_per_second", 1e9 / 8, "bytes per second" },
    Unit { "C", "celsius", 1, "degrees Celsius" },
};

// A unit without a base unit, as a metric name's suffix: "GPUs" -> "gpus".
std::string suffix_of(std::string_view unit)
{
    std::string out;
    for (char c : unit)
        out += (c >= 'A' && c <= 'Z')                            ? char(c - 'A' + 'a')
            : ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) ? c
                                                                 : '_';
    return out;
}

Family& family_named(std::vector<Family>& families, const std::string& name, const std::string& help)
{
    auto it = std::find_if(families.begin(), families.end(), [&](const Family& f) { return f.name == name; });
    if (it != families.end())
        return *it;
    return families.emplace_back(Family { name, help, {} });
}

Labels finding_labels(const Finding& finding, const std::vector<Finding>& findings)
{
    Labels labels = { { "check", finding.code } };
    std::string subject = finding.subject;
    if (subject.empty()) {
        auto same_check = std::count_if(findings.begin(), findings.end(),
            [&](const Finding& f) { return f.code == finding.code && f.subject.empty(); });
        if (same_check > 1)
            subject = finding.value;
    }
    if (!subject.empty())
        labels.emplace_back("subject", subject);
    return labels;
}

void add_state_set(Family& family, Labels labels, Verdict reached)
{
    for (Verdict verdict : k_verdicts) {
        Labels with = labels;
        with.emplace_back("verdict", std::string(to_string(verdict)));
        family.samples.push_back({ std::move(with), verdict == reached ? 1.0 : 0.0 });
    }
}

void add_measured(std::vector<Family>& measured, const Finding& finding, Labels labels)
{
    auto unit = std::find_if(k_units.begin(), k_units.end(), [&](const Unit& u) { return u.finding == finding.unit; });
    std::string suffix = unit != k_units.end() ? std::string(unit->suffix) : suffix_of(finding.unit);
    std::string words = unit != k_units.end() ? std::string(unit->words) : finding.unit;
    std::string name = "dlenv_doctor_measured" + (suffix.empty() ? "" : "_" + suffix);
    family_named(measured, name, "What the doctor's check measured" + (words.empty() ? "" : ", in " + words) + ".")
        .samples.push_back({ std::move(labels), *finding.measured * (unit != k_units.end() ? unit->scale : 1) });
}

} // namespace

std::vector<Family> doctor_families(const std::vector<Finding>& findings)
{
    Family checks { "dlenv_doctor_check",
        "1 for the verdict the doctor's check reached on this machine, 0 for the other verdicts.", {} };
    Family overall { "dlenv_doctor_verdict", "1 for the worst verdict of the doctor's checks, 0 for the others.", {} };
    std::vector<Family> measured;
    for (const auto& finding : findings) {
        Labels labels = finding_labels(finding, findings);
        add_state_set(checks, labels, finding.verdict);
        if (finding.measured)
            add_measured(measured, finding, labels);
    }
    add_state_set(overall, {}, worst_verdict(findings));
    std::vector<Family> out = { std::move(overall), std::move(checks) };
    out.insert(out.end(), measured.begin(), measured.end());
    return out;
}

} // namespace dlenv::metrics
