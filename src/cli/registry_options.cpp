#include "cli/registry_options.h"

#include "registry/credentials.h"

namespace dlenv::cli {

void add_registry_options(CLI::App* command, RegistryArgs& args)
{
    command->add_flag("--insecure", args.insecure,
                      "Allow plain HTTP or an unverified certificate for this registry only");
}

std::unique_ptr<registry::Session> open_session(const registry::Reference& reference, const RegistryArgs& args)
{
    registry::RegistryOptions options;
    options.insecure = args.insecure;
    return std::make_unique<registry::Session>(reference.registry, reference.api_host(), options,
                                               registry::find_credentials(reference.registry));
}

} // namespace dlenv::cli
