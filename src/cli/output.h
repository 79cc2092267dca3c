#pragma once

#include "core/error.h"
#include "resolve/report.h"

#include <nlohmann/json.hpp>

namespace dlenv::cli {

// Prints an error: "dlenv: <message>" and "  hint: <hint>" on stderr, or, with --json,
// {"error": {"code", "message", "hint"}} on stdout.
void print_error(const Error& error, bool json);

// A check report as people read it: the verdict, each finding with its source, suggestions.
void print_report(const resolve::Report& report, const std::string& subject);

// Canonical JSON on stdout.
void print_json(const nlohmann::json& value);

} // namespace dlenv::cli
