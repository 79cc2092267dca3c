#include "core/json_reader.h"

#include "core/closest.h"
#include "core/text_position.h"

#include <algorithm>

namespace dlenv {
namespace {

std::string describe(const nlohmann::json& value)
{
    std::string text = value.dump();
    if (text.size() > 40)
        text = text.substr(0, 37) + "...";
    return text + " (" + value.type_name() + ")";
}

} // namespace

JsonReader::JsonReader(std::string file, const nlohmann::json& value, std::string path)
    : m_file(std::move(file))
    , m_value(&value)
    , m_path(std::move(path))
{
}

nlohmann::json JsonReader::parse_document(const std::string& file, const std::string& text)
{
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        std::string what = e.what();
        std::size_t colon = what.rfind(": ");
        throw Error(ErrorCode::invalid_input,
            file + ":" + text_position(text, e.byte)
                + ": not valid JSON: " + (colon == std::string::npos ? what : what.substr(colon + 2)),
            "fix the syntax at that position");
    }
}

JsonReader JsonReader::at(std::string_view key) const
{
    if (!m_value->is_object())
        expected("an object");
    auto it = m_value->find(key);
    std::string child = m_path.empty() ? std::string(key) : m_path + "." + std::string(key);
    if (it == m_value->end() || it->is_null())
        JsonReader(m_file, *m_value, child).fail("missing", "add the field \"" + std::string(key) + "\"");
    return JsonReader(m_file, *it, child);
}

std::optional<JsonReader> JsonReader::find(std::string_view key) const
{
    if (!m_value->is_object())
        expected("an object");
    auto it = m_value->find(key);
    if (it == m_value->end() || it->is_null())
        return std::nullopt;
    return JsonReader(m_file, *it, m_path.empty() ? std::string(key) : m_path + "." + std::string(key));
}

std::vector<JsonReader> JsonReader::items() const
{
    if (!m_value->is_array())
        expected("an array");
    std::vector<JsonReader> out;
    for (std::size_t i = 0; i < m_value->size(); ++i)
        out.emplace_back(m_file, (*m_value)[i], m_path + "[" + std::to_string(i) + "]");
    return out;
}

std::string JsonReader::string() const
{
    if (!m_value->is_string())
        expected("a string");
    return m_value->get<std::string>();
}

std::vector<std::string> JsonReader::strings() const
{
    std::vector<std::string> out;
    for (const auto& item : items())
        out.push_back(item.string());
    return out;
}

std::map<std::string, std::string> JsonReader::string_map() const
{
    if (!m_value->is_object())
        expected("an object of strings");
    std::map<std::string, std::string> out;
    for (const auto& item : m_value->items())
        out[item.key()] = at(item.key()).string();
    return out;
}

bool JsonReader::boolean() const
{
    if (!m_value->is_boolean())
        expected("true or false");
    return m_value->get<bool>();
}

double JsonReader::number() const
{
    if (!m_value->is_number())
        expected("a number");
    return m_value->get<double>();
}

std::uint32_t JsonReader::unsigned_integer() const
{
    if (!m_value->is_number_unsigned())
        expected("a whole number");
    return m_value->get<std::uint32_t>();
}

std::int64_t JsonReader::non_negative_integer() const
{
    // A parsed document holds non-negative numbers as unsigned; one built in memory may
    // hold them signed.
    bool fits = m_value->is_number_unsigned() ? m_value->get<std::uint64_t>() <= INT64_MAX
                                              : m_value->is_number_integer() && m_value->get<std::int64_t>() >= 0;
    if (!fits)
        expected("a whole number of at least 0");
    return m_value->get<std::int64_t>();
}

std::optional<std::string> JsonReader::optional_string(std::string_view key) const
{
    auto field = find(key);
    return field ? std::optional<std::string>(field->string()) : std::nullopt;
}

void JsonReader::allow_only(std::initializer_list<std::string_view> allowed) const
{
    if (!m_value->is_object())
        expected("an object");
    std::vector<std::string> names(allowed.begin(), allowed.end());
    for (const auto& [key, value] : m_value->items()) {
        if (std::find(names.begin(), names.end(), key) != names.end())
            continue;
        auto near = closest_matches(key, names, 1);
        JsonReader(m_file, value, m_path.empty() ? key : m_path + "." + key)
            .fail("unknown field", near.empty() ? "remove it; allowed fields: " + join_alternatives(names, " and ")
                                                : "did you mean \"" + near.front() + "\"?");
    }
}

void JsonReader::fail(const std::string& problem, const std::string& hint) const
{
    throw Error(ErrorCode::invalid_input, m_file + ": " + (m_path.empty() ? "(document)" : m_path) + ": " + problem,
                hint);
}

void JsonReader::expected(std::string_view what) const
{
    fail("expected " + std::string(what) + ", got " + describe(*m_value));
}

} // namespace dlenv
