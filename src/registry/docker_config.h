#pragma once

#include "registry/credentials.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::registry {

// The credentials a Docker config.json gives for the first of `keys` it has, as Docker
// reads it: from the helper "credHelpers" names for the registry, else from the
// "credsStore" helper (ask_credential_helper), else from "auths": "auth" (base64 of
// USER:PASSWORD), else "username" and "password". nullopt when the file does not exist
// or none of them holds any. The file holds secrets, so a
// malformed one is refused (Error(invalid_input)) naming the file and the line and
// column, or the field (`auths."registry.example".auth`), and what is wrong, but
// never quoting its text; `registry` names where to log in again.
std::optional<Credentials> read_docker_config(
    const std::filesystem::path& file, const std::vector<std::string>& keys, const std::string& registry);

} // namespace dlenv::registry
