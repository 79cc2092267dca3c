#include "cli/output.h"

#include "core/canonical_json.h"

#include <iostream>

namespace dlenv::cli {

void print_error(const Error& error, bool json)
{
    if (json) {
        nlohmann::json body = { { "code", to_string(error.code()) }, { "message", error.what() } };
        if (!error.hint().empty())
            body["hint"] = error.hint();
        print_json({ { "error", body } });
        return;
    }
    std::cerr << "dlenv: " << error.what() << "\n";
    if (!error.hint().empty())
        std::cerr << "  hint: " << error.hint() << "\n";
}

void print_report(const resolve::Report& report, const std::string& subject, std::ostream& out)
{
    std::size_t errors = 0, warnings = 0;
    for (const auto& f : report.findings) {
        errors += f.verdict == Verdict::fail;
        warnings += f.verdict == Verdict::warn;
    }
    if (errors)
        out << "error: " << subject << " does not work (" << errors << (errors == 1 ? " error)\n" : " errors)\n");
    else if (warnings)
        out << "warning: " << subject << " works, with " << warnings << (warnings == 1 ? " warning\n" : " warnings\n");
    else
        out << "ok: " << subject << " works\n";
    for (const auto& f : report.findings) {
        std::string label(resolve::verdict_name(f.verdict));
        out << "  " << label << std::string(9 - label.size(), ' ') << f.code << ": " << f.message << "\n";
        if (!f.why.empty())
            out << "           source: " << f.why << "\n";
    }
    if (!report.suggestions.empty()) {
        out << "suggestions:\n";
        for (const auto& s : report.suggestions)
            out << "  - " << s << "\n";
    }
}

void print_json(const nlohmann::json& value, std::ostream& out)
{
    out << to_canonical_json(value);
}

std::ostream& report_stream(std::initializer_list<std::string_view> outputs)
{
    for (std::string_view output : outputs)
        if (output == "-")
            return std::cerr;
    return std::cout;
}

} // namespace dlenv::cli
