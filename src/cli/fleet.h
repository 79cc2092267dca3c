#pragma once

#include "cli/commands.h"
#include "fleet/fleet_job.h"

#include <string>

namespace dlenv::cli {

// What every `dlenv fleet` subcommand that writes a job is told.
struct FleetArgs {
    std::string image; // NAME[:TAG] of the store
    std::string registry; // --registry REF
    unsigned nodes = 1;
    unsigned gpus_per_node = 1;
    bool insecure = false;
};

// Adds the image argument, --registry, --nodes, --gpus-per-node, --insecure and the store
// options.
void add_fleet_options(CLI::App* command, FleetArgs& args, Options& options);
// The job for the image in the store: its digest and the tiers of the lock it carries.
fleet::FleetJob fleet_job(const FleetArgs& args, const Options& options);

// One per `dlenv fleet` subcommand, in its own file.
void register_fleet_slurm(CLI::App& fleet, Options& options, int& exit_code); // fleet_slurm.cpp
void register_fleet_k8s(CLI::App& fleet, Options& options, int& exit_code); // fleet_k8s.cpp
void register_fleet_status(CLI::App& fleet, Options& options, int& exit_code); // fleet_status.cpp

} // namespace dlenv::cli
