#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlenv::metrics {

// Prometheus's text exposition format, version 0.0.4, as its scrapers and node_exporter's
// textfile collector read it. Every metric dlenv exposes is a gauge: a state or a figure
// as last recorded, never a count that only grows.

// The Content-Type a scrape answers with.
constexpr std::string_view k_content_type = "text/plain; version=0.0.4; charset=utf-8";

using Labels = std::vector<std::pair<std::string, std::string>>; // name, value; in the order written

struct Sample {
    Labels labels;
    double value;
};

// One metric: its name ([a-zA-Z_:][a-zA-Z0-9_:]*, with the unit in it: `_seconds`,
// `_ratio`, `_bytes`), its help text, its samples (each label set once).
struct Family {
    std::string name;
    std::string help;
    std::vector<Sample> samples;
};

// "# HELP name help\n# TYPE name gauge\n" then one line per sample, `name{l="v",...} value`,
// for each family in order; a family without samples is left out. Label values escape
// backslash, double quote and line feed; help text backslash and line feed. Values are
// whole numbers below 2^53 as integers ("1700000000"), others the shortest text that reads
// back as the same double ("0.866", "2.5e-07", "NaN", "+Inf").
// A name or label name outside the format's grammar, or two families of one name, is a
// programming error (std::logic_error).
std::string render(const std::vector<Family>& families);

// A label value as the format escapes it, without the quotes.
std::string escape_label_value(std::string_view value);

// A double as render writes it.
std::string value_text(double value);

} // namespace dlenv::metrics
