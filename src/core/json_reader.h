#pragma once

#include "core/error.h"

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv {

// A view of one value inside a JSON document that knows where it is, so every
// complaint names the file, the field and what was expected:
//   "profiles/x.json: framework.version: expected a string, got 2.1 (a number)".
// Accessors throw Error(invalid_input) with that message. The document must outlive it.
class JsonReader {
public:
    // How deep arrays and objects may nest in a document dlenv reads. Its own files nest a
    // few levels; a deeper one is hostile or broken, and would exhaust the stack of any
    // recursive walk over it (a dump, a comparison).
    static constexpr int k_max_depth = 64;

    JsonReader(std::string file, const nlohmann::json& value, std::string path = {});

    // Parses `text` as JSON, from a file, a registry or a user: the only way dlenv parses
    // JSON. Throws Error(invalid_input) naming `file`: a syntax error with its line and
    // column, a number out of range, nesting deeper than k_max_depth.
    static nlohmann::json parse_document(const std::string& file, std::string_view text);
    // The same for a file that holds secrets (credentials): its errors quote none of its text.
    static nlohmann::json parse_secret_document(const std::string& file, std::string_view text);
    // The same, for JSON whose absence is not an error (a registry's error body): null
    // when `text` is not JSON that parse_document accepts.
    static nlohmann::json parse_document_or_null(std::string_view text);

    const std::string& file() const { return m_file; }
    const std::string& path() const { return m_path; }
    const nlohmann::json& raw() const { return *m_value; }

    JsonReader at(std::string_view key) const; // required field
    std::optional<JsonReader> find(std::string_view key) const; // absent or null: nullopt
    std::vector<JsonReader> items() const; // the elements of an array

    std::string string() const;
    std::vector<std::string> strings() const;
    std::map<std::string, std::string> string_map() const; // an object whose values are strings
    bool boolean() const;
    double number() const;
    std::uint32_t unsigned_integer() const;
    std::int64_t non_negative_integer() const; // sizes and epochs

    // Parses the string value with `Type::parse`, reporting failures at this field.
    template <typename Type> Type as() const
    {
        std::string text = string();
        try {
            return Type::parse(text);
        } catch (const Error& e) {
            fail(e.message(), e.hint());
        }
    }
    template <typename Type> std::optional<Type> optional_as(std::string_view key) const
    {
        auto field = find(key);
        return field ? std::optional<Type>(field->as<Type>()) : std::nullopt;
    }
    std::optional<std::string> optional_string(std::string_view key) const;

    // Refuses keys outside `allowed`, naming the closest allowed key.
    void allow_only(std::initializer_list<std::string_view> allowed) const;

    [[noreturn]] void fail(const std::string& problem, const std::string& hint = {}) const;

private:
    [[noreturn]] void expected(std::string_view what) const;
    JsonReader child(const nlohmann::json& value, std::string path) const;

    std::string m_file;
    const nlohmann::json* m_value;
    std::string m_path;
};

} // namespace dlenv
