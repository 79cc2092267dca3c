#include "verify/cdi_yaml.h"

#include "core/error.h"
#include "core/json_reader.h"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <regex>

namespace dlenv::verify {
namespace {

constexpr int k_max_depth = 32;
constexpr std::size_t k_max_nodes = 100000;
constexpr std::size_t k_max_bytes = 1 << 20;

std::string at(const YAML::Mark& mark)
{
    if (mark.is_null())
        return "";
    return ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

// YAML 1.2's core schema, as the CDI library's YAML reader resolves plain scalars.
nlohmann::json plain_scalar(const std::string& text)
{
    static const std::regex null_word("~|null|Null|NULL");
    static const std::regex true_word("true|True|TRUE");
    static const std::regex false_word("false|False|FALSE");
    static const std::regex integer("[-+]?[0-9]+");
    if (text.empty() || std::regex_match(text, null_word))
        return nullptr;
    if (std::regex_match(text, true_word))
        return true;
    if (std::regex_match(text, false_word))
        return false;
    if (std::regex_match(text, integer)) {
        std::string_view digits = text.front() == '+' ? std::string_view(text).substr(1) : std::string_view(text);
        std::int64_t value = 0;
        auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
        if (ec == std::errc() && end == digits.data() + digits.size())
            return value;
    }
    return text;
}

class Converter {
public:
    explicit Converter(const std::string& where)
        : m_where(where)
    {
    }

    nlohmann::json convert(const YAML::Node& node, int depth)
    {
        if (depth > k_max_depth)
            fail(node, "nested more than " + std::to_string(k_max_depth) + " levels deep");
        if (++m_nodes > k_max_nodes)
            fail(node, "more than " + std::to_string(k_max_nodes) + " nodes with its aliases expanded");
        switch (node.Type()) {
        case YAML::NodeType::Null:
        case YAML::NodeType::Undefined:
            return nullptr;
        case YAML::NodeType::Scalar:
            return node.Tag() == "?" ? plain_scalar(node.Scalar()) : nlohmann::json(node.Scalar());
        case YAML::NodeType::Sequence: {
            nlohmann::json out = nlohmann::json::array();
            for (const auto& item : node)
                out.push_back(convert(item, depth + 1));
            return out;
        }
        case YAML::NodeType::Map: {
            nlohmann::json out = nlohmann::json::object();
            for (const auto& entry : node) {
                if (!entry.first.IsScalar())
                    fail(entry.first, "a key that is not a string");
                const std::string& key = entry.first.Scalar();
                if (out.contains(key))
                    fail(entry.first, "the key '" + key + "' twice");
                out[key] = convert(entry.second, depth + 1);
            }
            return out;
        }
        }
        return nullptr;
    }

    [[noreturn]] void fail(const YAML::Node& node, const std::string& what) const
    {
        throw Error(
            ErrorCode::invalid_input, m_where + at(node.Mark()) + ": not a CDI spec: " + what, k_regenerate_cdi_spec);
    }

private:
    std::string m_where;
    std::size_t m_nodes = 0;
};

} // namespace

nlohmann::json cdi_yaml_document(const std::string& text, const std::string& where)
{
    if (text.size() > k_max_bytes)
        throw Error(ErrorCode::invalid_input,
            where + ": not a CDI spec: larger than " + std::to_string(k_max_bytes >> 20) + " MiB",
            k_regenerate_cdi_spec);
    // A document in flow style is JSON, which YAML 1.2 contains: the bounded JSON reader
    // reads it, since yaml-cpp takes time out of all proportion on some flow documents.
    std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && (text[first] == '{' || text[first] == '['))
        return JsonReader::parse_document(where, text);
    std::vector<YAML::Node> documents;
    try {
        documents = YAML::LoadAll(text);
    } catch (const YAML::Exception& e) {
        throw Error(ErrorCode::invalid_input, where + at(e.mark) + ": not YAML: " + e.msg, k_regenerate_cdi_spec);
    }
    if (documents.size() != 1)
        throw Error(ErrorCode::invalid_input,
            where + ": not a CDI spec: " + std::to_string(documents.size()) + " YAML documents, expected one",
            k_regenerate_cdi_spec);
    return Converter(where).convert(documents.front(), 0);
}

} // namespace dlenv::verify
