#pragma once

#include "fleet/fleet_job.h"

#include <optional>
#include <string>

namespace dlenv::fleet {

// What only Slurm is told. A lock says nothing of CPUs or memory, so these come from the
// command line.
struct SlurmSettings {
    std::optional<unsigned> cpus_per_task; // none: no --cpus-per-task, the node is the job's (--exclusive)
    std::string memory = "0"; // --mem; Slurm reads 0 as all the memory of each node
    std::string partition; // empty: the cluster's default
    std::string dlenv = "dlenv"; // the dlenv program on the nodes
};

// The sbatch file name of the job's output, in its working directory: %j is the job id.
constexpr const char* k_slurm_output = "dlenv-fleet-%j.out";

// A bash batch script: one task on each of job.nodes whole nodes (--exclusive, --gres=gpu:N
// unless N is 0), each running node_script through srun; then the job's outcome printed as
// "dlenv-fleet-outcome CODE" and returned as its exit code: 1 when a node failed, else 2
// when one was given bad input, else 3 when one could not run or never reported, else 0.
// Every value is checked with check_plain and written single-quoted; Error(invalid_input)
// naming the field otherwise.
std::string sbatch_script(const FleetJob& job, const SlurmSettings& settings);

} // namespace dlenv::fleet
