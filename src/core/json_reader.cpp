#include "core/json_reader.h"

#include "core/closest.h"
#include "core/text_position.h"

#include <algorithm>

namespace dlenv {
namespace {

// A short excerpt and the type, never a whole value: dumping a large or deep value would
// flood the message or exhaust the stack.
std::string describe(const nlohmann::json& value)
{
    if (value.is_array())
        return "an array (" + std::to_string(value.size()) + " items)";
    if (value.is_object())
        return "an object (" + std::to_string(value.size()) + " fields)";
    // Cut before quoting, so a long string costs nothing; a cut inside a UTF-8 sequence
    // becomes U+FFFD.
    nlohmann::json excerpt
        = value.is_string() ? nlohmann::json(value.get_ref<const std::string&>().substr(0, 40)) : value;
    std::string text = excerpt.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (text.size() > 40)
        text = text.substr(0, 37) + "...";
    return text + " (" + value.type_name() + ")";
}

struct TooDeep { };

nlohmann::json parse_bounded(std::string_view text)
{
    auto bound = [](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
        bool opens = event == nlohmann::json::parse_event_t::object_start
            || event == nlohmann::json::parse_event_t::array_start;
        if (opens && depth >= JsonReader::k_max_depth)
            throw TooDeep {};
        return true;
    };
    return nlohmann::json::parse(text, bound);
}

// "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..." ->
// "syntax error ...", cut short: the token it quotes may be long, or a secret.
std::string reason(const nlohmann::json::exception& e)
{
    std::string what = e.what();
    std::size_t start = what.find("] ");
    start = start == std::string::npos ? 0 : start + 2;
    if (what.compare(start, 11, "parse error") == 0)
        if (std::size_t colon = what.find(": ", start); colon != std::string::npos)
            start = colon + 2;
    what = what.substr(start);
    return what.size() > 160 ? what.substr(0, 157) + "..." : what;
}

// parse_bounded with every failure as Error(invalid_input) naming `file`; `quote` says
// whether the parser's reason, which may quote the text it stopped at, is shown.
nlohmann::json parse_checked(const std::string& file, std::string_view text, bool quote)
{
    std::string hidden = "; the text there is not shown, as the file holds credentials";
    try {
        return parse_bounded(text);
    } catch (const TooDeep&) {
        throw Error(ErrorCode::invalid_input,
            file + ": arrays and objects nest deeper than " + std::to_string(JsonReader::k_max_depth) + " levels",
            "dlenv reads JSON nested at most " + std::to_string(JsonReader::k_max_depth)
                + " levels deep; this is not a file it wrote or expects");
    } catch (const nlohmann::json::parse_error& e) {
        throw Error(ErrorCode::invalid_input,
            file + ":" + text_position(text, e.byte) + ": not valid JSON" + (quote ? ": " + reason(e) : ""),
            "fix the syntax at that position" + (quote ? "" : hidden));
    } catch (const nlohmann::json::exception& e) {
        // A number too large for a double ("1e400") is out_of_range, with no position.
        throw Error(ErrorCode::invalid_input, file + ": not valid JSON" + (quote ? ": " + reason(e) : ""),
            "dlenv reads numbers that fit in a double");
    }
}

} // namespace

JsonReader::JsonReader(std::string file, const nlohmann::json& value, std::string path)
    : m_file(std::move(file))
    , m_value(&value)
    , m_path(std::move(path))
{
}

nlohmann::json JsonReader::parse_document(const std::string& file, std::string_view text)
{
    return parse_checked(file, text, true);
}

nlohmann::json JsonReader::parse_secret_document(const std::string& file, std::string_view text)
{
    return parse_checked(file, text, false);
}

nlohmann::json JsonReader::parse_document_or_null(std::string_view text)
{
    try {
        return parse_bounded(text);
    } catch (const TooDeep&) {
    } catch (const nlohmann::json::exception&) {
    }
    return nullptr;
}

JsonReader JsonReader::at(std::string_view key) const
{
    if (!m_value->is_object())
        expected("an object");
    auto it = m_value->find(key);
    std::string path = m_path.empty() ? std::string(key) : m_path + "." + std::string(key);
    if (it == m_value->end() || it->is_null())
        child(*m_value, path).fail("missing", "add the field \"" + std::string(key) + "\"");
    return child(*it, path);
}

std::optional<JsonReader> JsonReader::find(std::string_view key) const
{
    if (!m_value->is_object())
        expected("an object");
    auto it = m_value->find(key);
    if (it == m_value->end() || it->is_null())
        return std::nullopt;
    return child(*it, m_path.empty() ? std::string(key) : m_path + "." + std::string(key));
}

std::vector<JsonReader> JsonReader::items() const
{
    if (!m_value->is_array())
        expected("an array");
    std::vector<JsonReader> out;
    for (std::size_t i = 0; i < m_value->size(); ++i)
        out.push_back(child((*m_value)[i], m_path + "[" + std::to_string(i) + "]"));
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
        child(value, m_path.empty() ? key : m_path + "." + key)
            .fail("unknown field",
                near.empty() ? "remove it; allowed fields: " + join_alternatives(names, " and ")
                             : "did you mean \"" + near.front() + "\"?");
    }
}

void JsonReader::fail(const std::string& problem, const std::string& hint) const
{
    throw Error(
        ErrorCode::invalid_input, m_file + ": " + (m_path.empty() ? "(document)" : m_path) + ": " + problem, hint);
}

void JsonReader::expected(std::string_view what) const
{
    fail("expected " + std::string(what) + ", got " + describe(*m_value));
}

JsonReader JsonReader::child(const nlohmann::json& value, std::string path) const
{
    return JsonReader(m_file, value, std::move(path));
}

} // namespace dlenv
