#include "registry/docker_config.h"

#include "core/base64.h"
#include "core/error.h"
#include "core/file.h"
#include "core/json_reader.h"
#include "registry/credential_helper.h"
#include "registry/secret_field.h"

#include <nlohmann/json.hpp>

namespace dlenv::registry {
namespace {

std::optional<Credentials> from_entry(const SecretField& entry, const std::string& source, const std::string& registry)
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
    SecretField config(source, document, "");
    // Docker's order: the registry's own helper, else the store every registry's
    // credentials are in; config.json's auths only where neither is named.
    if (std::optional<SecretField> helpers = config.find("credHelpers"))
        for (const std::string& key : keys)
            if (std::optional<std::string> helper = helpers->string(key))
                return ask_credential_helper(*helper, registry, source + ": credHelpers");
    if (std::optional<std::string> store = config.string("credsStore"); store && !store->empty())
        return ask_credential_helper(*store, registry, source + ": credsStore");
    std::optional<SecretField> auths = config.find("auths");
    if (!auths)
        return std::nullopt;
    for (const std::string& key : keys)
        if (std::optional<SecretField> entry = auths->find(key))
            if (std::optional<Credentials> credentials = from_entry(*entry, source, registry))
                return credentials;
    return std::nullopt;
}

} // namespace dlenv::registry
