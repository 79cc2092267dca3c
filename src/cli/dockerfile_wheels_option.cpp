#include "cli/dockerfile_wheels_option.h"

namespace dlenv::cli {

void add_dockerfile_wheels_option(CLI::App* command, const std::string& name, std::string& wheels)
{
    command
        ->add_option(name, wheels,
            "Where the Dockerfile's pip finds the wheels: context (default; copied from the store's artifacts into "
            "wheels/ beside it, so the build needs no network) or urls (the indexes' URLs; a wheelhouse's wheels "
            "are still copied)")
        ->check(CLI::IsMember({ "context", "urls" }));
}

} // namespace dlenv::cli
