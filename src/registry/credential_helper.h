#pragma once

#include "registry/credentials.h"

#include <optional>
#include <string>

namespace dlenv::registry {

// The credentials a Docker credential helper holds for `registry`, asked as Docker asks:
// `docker-credential-NAME get` with the server address on its standard input
// ("https://index.docker.io/v1/" for docker.io, else the host), answering
// {"ServerURL", "Username", "Secret"} on its standard output. nullopt when the helper
// holds none ("credentials not found", or an empty Username and Secret): the registry is
// then used anonymously.
// `configured_by` names the config.json field that chose the helper, for messages.
// Error(environment) when the helper is missing or fails, Error(invalid_input) for a
// name that is not a helper's or an answer that is not its JSON; never quoting a secret.
std::optional<Credentials> ask_credential_helper(
    const std::string& name, const std::string& registry, const std::string& configured_by);

} // namespace dlenv::registry
