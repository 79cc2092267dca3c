#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace dlenv::registry {

// A user name and password (or token) for HTTP Basic auth, and for the token service
// of a registry that uses bearer tokens. Never printed.
struct Credentials {
    std::string username;
    std::string password;
    std::string source; // where they came from, for messages: "DLENV_REGISTRY_AUTH"
};

// The credentials for `registry` ("docker.io", "host:5000"), looked up in order:
//   DLENV_REGISTRY_AUTH=USER:PASSWORD   for the registry the command talks to
//   $DOCKER_CONFIG/config.json, else ~/.docker/config.json: its "credHelpers" helper for
//   the host, else its "credsStore" helper (`docker-credential-NAME get`), else "auths"
//   entries keyed by the host, with or without a scheme ("https://index.docker.io/v1/"
//   for docker.io), holding "auth" (base64 of USER:PASSWORD) or "username" and "password".
// nullopt when neither has any: the registry is then used anonymously. Error(invalid_input)
// for a malformed variable or config file, naming it (and the field, or the line and
// column) without its secret.
std::optional<Credentials> find_credentials(const std::string& registry);

// "USER:PASSWORD" split at its first colon; nullopt without a colon or a user name.
std::optional<Credentials> split_credentials(std::string_view pair, const std::string& source);

// The same lookup with the variable's value and the config file given, for tests.
std::optional<Credentials> find_credentials(
    const std::string& registry, const char* variable, const std::filesystem::path& docker_config);

} // namespace dlenv::registry
