#pragma once

// Checks written as a user asks them on the command line, and what tests read of the reports,
// for the tests of `dlenv check` against the embedded matrix.

#include "core/error.h"
#include "core/pep440.h"
#include "matrix/matrix.h"
#include "resolve/check.h"
#include "resolve/query.h"
#include "resolve/report.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace dlenv::resolve::check_support {

using Codes = std::set<std::string>;

// A query written the way a user types it on the command line.
struct Ask {
    std::vector<std::string> frameworks {};
    std::string cuda {};
    std::string cudnn {};
    std::string driver {};
    std::vector<std::string> gpus {};
    std::string python {};
    bool forward_compat = false;
    std::string os {};

    Query query() const
    {
        Query q;
        for (const auto& f : frameworks)
            q.frameworks.push_back(FrameworkRequest::parse(f));
        if (!cuda.empty())
            q.cuda = CudaVersion::parse(cuda);
        if (!cudnn.empty())
            q.cudnn = CudnnVersion::parse(cudnn);
        if (!driver.empty()) {
            auto request = DriverRequest::parse(driver);
            q.driver = request.release;
            q.driver_branch = request.branch;
        }
        if (!python.empty()) {
            auto request = PythonRequest::parse(python);
            q.python = request.version;
            q.free_threaded = request.free_threaded;
        }
        q.gpus = gpus;
        q.forward_compat = forward_compat;
        if (!os.empty())
            q.os = parse_host_os(os);
        return q;
    }
};

inline Report check(const Ask& ask)
{
    return resolve::check(matrix::Matrix::embedded(), ask.query());
}

// The codes of every warning and error: info findings only explain, and unknown ones say
// what could not be told.
inline Codes problems(const Report& report)
{
    Codes out;
    for (const auto& f : report.findings)
        if (f.verdict == Verdict::warn || f.verdict == Verdict::fail)
            out.insert(f.code);
    return out;
}

inline bool has_code(const Report& report, const std::string& code)
{
    return std::any_of(
        report.findings.begin(), report.findings.end(), [&](const Finding& f) { return f.code == code; });
}

inline const Finding* finding(const Report& report, const std::string& code)
{
    for (const auto& f : report.findings)
        if (f.code == code)
            return &f;
    return nullptr;
}

inline bool suggests(const Report& report, const std::string& text)
{
    return std::find(report.suggestions.begin(), report.suggestions.end(), text) != report.suggestions.end();
}

inline bool suggests_containing(const Report& report, const std::string& part)
{
    return std::any_of(report.suggestions.begin(), report.suggestions.end(),
        [&](const std::string& s) { return s.find(part) != std::string::npos; });
}

// The report, printed with any failed check below it.
#define SHOW(report) INFO((report).to_json().dump(2))

inline Error error_of(const Ask& ask)
{
    try {
        check(ask);
    } catch (const Error& e) {
        return e;
    }
    FAIL("expected an Error");
    throw;
}

} // namespace dlenv::resolve::check_support
