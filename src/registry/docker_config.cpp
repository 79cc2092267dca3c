#include "registry/docker_config.h"

#include "core/base64.h"
#include "core/error.h"
#include "core/file.h"
#include "core/json_reader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace dlenv::registry {
namespace {

// "a string", "an object": what a value is, without what it says.
std::string kind_of(const nlohmann::json& value)
{
    std::string type = value.type_name();
    return (type == "array" || type == "object" ? "an " : "a ") + type;
}

// Where a value sits in the file, for messages that name the place and never the value.
class Field {
public:
    Field(std::string file, const nlohmann::json& value, std::string path)
        : m_file(std::move(file))
        , m_value(&value)
        , m_path(std::move(path))
    {
    }

    // The member `key` of this object; nullopt when it is absent or null.
    std::optional<Field> find(const std::string& key) const
    {
        expect(m_value->is_object(), "an object");
        auto found = m_value->find(key);
        if (found == m_value->end() || found->is_null())
            return std::nullopt;
        return Field(m_file, *found, child_path(key));
    }

    std::optional<std::string> string(const std::string& key) const
    {
        std::optional<Field> field = find(key);
        if (!field)
            return std::nullopt;
        field->expect(field->m_value->is_string(), "a string");
        return field->m_value->get<std::string>();
    }

    [[noreturn]] void fail(const std::string& problem, const std::string& hint) const
    {
        throw Error(
            ErrorCode::invalid_input, m_file + ": " + (m_path.empty() ? "(document)" : m_path) + ": " + problem, hint);
    }

private:
    void expect(bool holds, const std::string& what) const
    {
        if (!holds)
            fail("expected " + what + ", got " + kind_of(*m_value),
                "fix the field, or log in again with `docker login`");
    }

    // Keys are host names: quoted when they hold dots or colons, as jq writes them.
    std::string child_path(const std::string& key) const
    {
        bool plain = !key.empty() && std::all_of(key.begin(), key.end(), [](unsigned char c) {
            return std::isalnum(c) || c == '_' || c == '-';
        });
        std::string name = plain ? key : "\"" + key + "\"";
        return m_path.empty() ? name : m_path + "." + name;
    }

    std::string m_file;
    const nlohmann::json* m_value;
    std::string m_path;
};

std::optional<Credentials> from_entry(const Field& entry, const std::string& source, const std::string& registry)
{
    if (std::optional<std::string> auth = entry.string("auth"); auth && !auth->empty()) {
        std::optional<std::string> decoded = base64_decode(*auth);
        std::optional<Credentials> credentials = decoded ? split_credentials(*decoded, source) : std::nullopt;
        if (!credentials)
            entry.find("auth")->fail(
                "is not base64 of USER:PASSWORD", "log in again with `docker login " + registry + "`");
        return credentials;
    }
    std::optional<std::string> username = entry.string("username");
    std::optional<std::string> password = entry.string("password");
    if (username && password)
        return Credentials { *username, *password, source };
    return std::nullopt;
}

} // namespace

std::optional<Credentials> read_docker_config(
    const std::filesystem::path& file, const std::vector<std::string>& keys, const std::string& registry)
{
    if (!std::filesystem::is_regular_file(file))
        return std::nullopt;
    std::string source = file.string();
    nlohmann::json document = JsonReader::parse_secret_document(source, read_file(file));
    std::optional<Field> auths = Field(source, document, "").find("auths");
    if (!auths)
        return std::nullopt;
    for (const std::string& key : keys)
        if (std::optional<Field> entry = auths->find(key))
            if (std::optional<Credentials> credentials = from_entry(*entry, source, registry))
                return credentials;
    return std::nullopt;
}

} // namespace dlenv::registry
