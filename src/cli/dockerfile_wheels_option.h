#pragma once

#include "cli/commands.h"

#include <string>

namespace dlenv::cli {

// Adds `name` (context or urls, image::DockerWheels) to a command that writes a Dockerfile.
void add_dockerfile_wheels_option(CLI::App* command, const std::string& name, std::string& wheels);

} // namespace dlenv::cli
