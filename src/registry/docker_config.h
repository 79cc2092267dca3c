#pragma once

#include "registry/credentials.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::registry {

// The credentials that the "auths" of a Docker config.json holds under the first of
// `keys` it has: "auth" (base64 of USER:PASSWORD), else "username" and "password".
// nullopt when the file does not exist or holds none. The file holds secrets, so a
// malformed one is refused (Error(invalid_input)) naming the file and the line and
// column, or the field (`auths."registry.example".auth`), and what is wrong, but
// never quoting its text; `registry` names where to log in again.
std::optional<Credentials> read_docker_config(
    const std::filesystem::path& file, const std::vector<std::string>& keys, const std::string& registry);

} // namespace dlenv::registry
