#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace dlenv::registry {

// A value of a JSON document that holds secrets (a Docker config.json, a credential
// helper's answer), with where it sits in that document, for messages that name the place
// and never the value: "config.json: auths.\"registry.example\".auth: expected a string,
// got an object".
class SecretField {
public:
    SecretField(std::string file, const nlohmann::json& value, std::string path);

    // The member `key` of this object; nullopt when it is absent or null.
    std::optional<SecretField> find(const std::string& key) const;
    // The string member `key`; nullopt when it is absent or null.
    std::optional<std::string> string(const std::string& key) const;

    [[noreturn]] void fail(const std::string& problem, const std::string& hint) const;

private:
    void expect(bool holds, const std::string& what) const;
    std::string child_path(const std::string& key) const;

    std::string m_file;
    const nlohmann::json* m_value;
    std::string m_path;
};

} // namespace dlenv::registry
