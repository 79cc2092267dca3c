#include "metrics/exposition.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <set>
#include <stdexcept>

namespace dlenv::metrics {
namespace {

bool valid_name(std::string_view name, bool colons)
{
    if (name.empty())
        return false;
    for (std::size_t i = 0; i < name.size(); ++i) {
        char c = name[i];
        bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colons && c == ':');
        if (!letter && !(i > 0 && c >= '0' && c <= '9'))
            return false;
    }
    return true;
}

std::string escape_help(std::string_view help)
{
    std::string out;
    for (char c : help)
        out += c == '\\' ? "\\\\" : c == '\n' ? "\\n" : std::string(1, c);
    return out;
}

void render_family(const Family& family, std::string& out)
{
    if (!valid_name(family.name, true))
        throw std::logic_error("metric name \"" + family.name + "\" is outside the exposition format's grammar");
    out += "# HELP " + family.name + " " + escape_help(family.help) + "\n";
    out += "# TYPE " + family.name + " gauge\n";
    for (const auto& sample : family.samples) {
        out += family.name;
        if (!sample.labels.empty()) {
            out += '{';
            for (std::size_t i = 0; i < sample.labels.size(); ++i) {
                const auto& [name, value] = sample.labels[i];
                // Names starting "__" are reserved for Prometheus itself.
                if (!valid_name(name, false) || name.starts_with("__"))
                    throw std::logic_error("label name \"" + name + "\" of " + family.name + " is not allowed");
                out += (i ? "," : "") + name + "=\"" + escape_label_value(value) + "\"";
            }
            out += '}';
        }
        out += " " + value_text(sample.value) + "\n";
    }
}

} // namespace

std::string escape_label_value(std::string_view value)
{
    std::string out;
    for (char c : value)
        out += c == '\\' ? "\\\\" : c == '"' ? "\\\"" : c == '\n' ? "\\n" : std::string(1, c);
    return out;
}

std::string value_text(double value)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "+Inf" : "-Inf";
    char text[32];
    // Whole numbers, timestamps and byte counts among them, as integers: 1700000000, not 1.7e+09.
    if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0)
        return std::to_string(static_cast<std::int64_t>(value));
    auto result = std::to_chars(text, text + sizeof text, value);
    return std::string(text, result.ptr);
}

std::string render(const std::vector<Family>& families)
{
    std::string out;
    std::set<std::string> names;
    for (const auto& family : families) {
        if (!names.insert(family.name).second)
            throw std::logic_error("metric " + family.name + " rendered twice");
        if (!family.samples.empty())
            render_family(family, out);
    }
    return out;
}

} // namespace dlenv::metrics
