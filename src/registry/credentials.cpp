#include "registry/credentials.h"

#include "core/error.h"
#include "registry/docker_config.h"

#include <cstdlib>
#include <string>
#include <vector>

namespace dlenv::registry {
namespace {

constexpr const char* k_variable = "DLENV_REGISTRY_AUTH";

// The config.json keys that may name `registry`.
std::vector<std::string> keys_for(const std::string& registry)
{
    std::vector<std::string> keys = { registry, "https://" + registry, "http://" + registry,
        "https://" + registry + "/v1/", "https://" + registry + "/v2/" };
    if (registry == "docker.io")
        keys.insert(keys.end(), { "https://index.docker.io/v1/", "index.docker.io", "registry-1.docker.io" });
    return keys;
}

std::filesystem::path default_docker_config()
{
    if (const char* dir = std::getenv("DOCKER_CONFIG"))
        return std::filesystem::path(dir) / "config.json";
    const char* home = std::getenv("HOME");
    return home ? std::filesystem::path(home) / ".docker" / "config.json" : std::filesystem::path();
}

} // namespace

std::optional<Credentials> split_credentials(std::string_view pair, const std::string& source)
{
    std::size_t colon = pair.find(':');
    if (colon == std::string_view::npos || colon == 0)
        return std::nullopt;
    return Credentials { std::string(pair.substr(0, colon)), std::string(pair.substr(colon + 1)), source };
}

std::optional<Credentials> find_credentials(
    const std::string& registry, const char* variable, const std::filesystem::path& docker_config)
{
    if (variable && *variable) {
        std::optional<Credentials> credentials = split_credentials(variable, k_variable);
        if (!credentials)
            throw Error(ErrorCode::invalid_input, std::string(k_variable) + " is not USER:PASSWORD",
                "set it to the user name, a colon, and the password or token");
        return credentials;
    }
    return read_docker_config(docker_config, keys_for(registry), registry);
}

std::optional<Credentials> find_credentials(const std::string& registry)
{
    return find_credentials(registry, std::getenv(k_variable), default_docker_config());
}

} // namespace dlenv::registry
