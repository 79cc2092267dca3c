#pragma once

#include "core/error.h"
#include "resolve/report.h"

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <iostream>
#include <string_view>

namespace dlenv::cli {

// Prints an error: "dlenv: <message>" and "  hint: <hint>" on stderr, or, with --json,
// {"error": {"code", "message", "hint"}} on stdout.
void print_error(const Error& error, bool json);

// A check report as people read it: the verdict, each finding with its source, suggestions.
void print_report(const resolve::Report& report, const std::string& subject, std::ostream& out = std::cout);

// Canonical JSON on stdout (or `out`).
void print_json(const nlohmann::json& value, std::ostream& out = std::cout);

// Where a command prints its report: standard error when one of the files it writes is
// "-", which gives standard output to that file; standard output otherwise.
std::ostream& report_stream(std::initializer_list<std::string_view> outputs);

} // namespace dlenv::cli
