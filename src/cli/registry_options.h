#pragma once

#include "cli/commands.h"
#include "registry/reference.h"
#include "registry/session.h"

#include <memory>

namespace dlenv::cli {

struct RegistryArgs {
    bool insecure = false;
};

// Adds --insecure: plain HTTP or an unverified certificate, for the named registry only.
void add_registry_options(CLI::App* command, RegistryArgs& args);

// A session with the registry of `reference`, with the credentials found for it.
std::unique_ptr<registry::Session> open_session(const registry::Reference& reference, const RegistryArgs& args);

} // namespace dlenv::cli
