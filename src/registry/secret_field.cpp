#include "registry/secret_field.h"

#include "core/error.h"

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

} // namespace

SecretField::SecretField(std::string file, const nlohmann::json& value, std::string path)
    : m_file(std::move(file))
    , m_value(&value)
    , m_path(std::move(path))
{
}

std::optional<SecretField> SecretField::find(const std::string& key) const
{
    expect(m_value->is_object(), "an object");
    auto found = m_value->find(key);
    if (found == m_value->end() || found->is_null())
        return std::nullopt;
    return SecretField(m_file, *found, child_path(key));
}

std::optional<std::string> SecretField::string(const std::string& key) const
{
    std::optional<SecretField> field = find(key);
    if (!field)
        return std::nullopt;
    field->expect(field->m_value->is_string(), "a string");
    return field->m_value->get<std::string>();
}

void SecretField::fail(const std::string& problem, const std::string& hint) const
{
    throw Error(
        ErrorCode::invalid_input, m_file + ": " + (m_path.empty() ? "(document)" : m_path) + ": " + problem, hint);
}

void SecretField::expect(bool holds, const std::string& what) const
{
    if (!holds)
        fail("expected " + what + ", got " + kind_of(*m_value), "fix the field, or log in again with `docker login`");
}

// Keys are host names: quoted when they hold dots or colons, as jq writes them.
std::string SecretField::child_path(const std::string& key) const
{
    bool plain = !key.empty()
        && std::all_of(key.begin(), key.end(), [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '-'; });
    std::string name = plain ? key : "\"" + key + "\"";
    return m_path.empty() ? name : m_path + "." + name;
}

} // namespace dlenv::registry
