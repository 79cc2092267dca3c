#include "registry/credentials.h"

#include "core/base64.h"
#include "core/error.h"
#include "core/file.h"
#include "core/json_reader.h"

#include <cstdlib>

namespace dlenv::registry {
namespace {

constexpr const char* k_variable = "DLENV_REGISTRY_AUTH";

std::optional<Credentials> split(std::string_view pair, const std::string& source)
{
    std::size_t colon = pair.find(':');
    if (colon == std::string_view::npos || colon == 0)
        return std::nullopt;
    return Credentials{std::string(pair.substr(0, colon)), std::string(pair.substr(colon + 1)), source};
}

// The config.json keys that may name `registry`.
std::vector<std::string> keys_for(const std::string& registry)
{
    std::vector<std::string> keys = {registry, "https://" + registry, "http://" + registry,
                                     "https://" + registry + "/v1/", "https://" + registry + "/v2/"};
    if (registry == "docker.io")
        keys.insert(keys.end(), {"https://index.docker.io/v1/", "index.docker.io", "registry-1.docker.io"});
    return keys;
}

std::optional<Credentials> from_docker_config(const std::string& registry, const std::filesystem::path& file)
{
    if (!std::filesystem::is_regular_file(file))
        return std::nullopt;
    std::string source = file.string();
    nlohmann::json document = JsonReader::parse_document(source, read_file(file));
    JsonReader config = JsonReader(source, document).hiding_values();
    std::optional<JsonReader> auths = config.find("auths");
    if (!auths)
        return std::nullopt;
    for (const std::string& key : keys_for(registry)) {
        std::optional<JsonReader> entry = auths->find(key);
        if (!entry)
            continue;
        if (std::optional<std::string> auth = entry->optional_string("auth"); auth && !auth->empty()) {
            std::optional<std::string> decoded = base64_decode(*auth);
            std::optional<Credentials> credentials = decoded ? split(*decoded, source) : std::nullopt;
            if (!credentials)
                entry->at("auth").fail("is not base64 of USER:PASSWORD", "log in again with `docker login " + registry + "`");
            return credentials;
        }
        std::optional<std::string> username = entry->optional_string("username");
        std::optional<std::string> password = entry->optional_string("password");
        if (username && password)
            return Credentials{*username, *password, source};
    }
    return std::nullopt;
}

std::filesystem::path default_docker_config()
{
    if (const char* dir = std::getenv("DOCKER_CONFIG"))
        return std::filesystem::path(dir) / "config.json";
    const char* home = std::getenv("HOME");
    return home ? std::filesystem::path(home) / ".docker" / "config.json" : std::filesystem::path();
}

} // namespace

std::optional<Credentials> find_credentials(const std::string& registry, const char* variable,
                                            const std::filesystem::path& docker_config)
{
    if (variable && *variable) {
        std::optional<Credentials> credentials = split(variable, k_variable);
        if (!credentials)
            throw Error(ErrorCode::invalid_input, std::string(k_variable) + " is not USER:PASSWORD",
                        "set it to the user name, a colon, and the password or token");
        return credentials;
    }
    return from_docker_config(registry, docker_config);
}

std::optional<Credentials> find_credentials(const std::string& registry)
{
    return find_credentials(registry, std::getenv(k_variable), default_docker_config());
}

} // namespace dlenv::registry
