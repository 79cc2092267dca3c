#include "cli/registry_options.h"

namespace dlenv::cli {

void add_registry_options(CLI::App* command, RegistryArgs& args)
{
    command->add_flag(
        "--insecure", args.insecure, "Allow plain HTTP or an unverified certificate for this registry only");
}

} // namespace dlenv::cli
