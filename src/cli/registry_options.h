#pragma once

#include "cli/commands.h"

namespace dlenv::cli {

struct RegistryArgs {
    bool insecure = false;
};

// Adds --insecure: plain HTTP or an unverified certificate, for the named registry only.
void add_registry_options(CLI::App* command, RegistryArgs& args);

} // namespace dlenv::cli
