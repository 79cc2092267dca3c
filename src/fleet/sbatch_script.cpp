#include "fleet/sbatch_script.h"

#include "fleet/node_script.h"

namespace dlenv::fleet {
namespace {

// The worst code the nodes reported, in the order sbatch_script documents; a code that
// is no verify code (a signal, a missing program) counts as a node that could not run.
constexpr const char* k_outcome_awk
    = R"($1 == "dlenv-fleet-result" { seen++; if ($3 == "1") failed = 1; else if ($3 == "2") bad = 1; else if ($3 != "0") unrun = 1 }
END { if (failed) print 1; else if (bad) print 2; else if (unrun || seen < nodes) print 3; else print 0 })";

std::string directive(const std::string& option)
{
    return "#SBATCH " + option + "\n";
}

} // namespace

std::string sbatch_script(const FleetJob& job, const SlurmSettings& settings)
{
    check_job(job);
    check_plain("--mem", settings.memory);
    check_plain("--dlenv", settings.dlenv);
    if (!settings.partition.empty())
        check_plain("--partition", settings.partition);
    const std::string nodes = std::to_string(job.nodes);

    std::string out = "#!/bin/bash\n";
    out += directive("--job-name=" + job_name(job));
    out += directive("--nodes=" + nodes);
    out += directive("--ntasks-per-node=1");
    out += directive("--exclusive");
    if (job.gpus_per_node > 0)
        out += directive("--gres=gpu:" + std::to_string(job.gpus_per_node));
    if (settings.cpus_per_task)
        out += directive("--cpus-per-task=" + std::to_string(*settings.cpus_per_task));
    out += directive("--mem=" + settings.memory);
    if (!settings.partition.empty())
        out += directive("--partition=" + settings.partition);
    out += directive(std::string("--output=") + k_slurm_output);
    out += "# dlenv fleet slurm: verify " + pinned_reference(job) + " on each node, tiers " + tier_list(job)
        + ".\n# Exit code: 0 every node passed, 1 one failed, 2 bad input, 3 one could not run.\n";
    out += "set -u\n";
    for (const auto& [name, value] : node_environment(job, settings.dlenv))
        out += "export " + name + "=" + shell_quote(value) + "\n";
    out += "export DLENV_FLEET_STORE=\"${TMPDIR:-/tmp}/dlenv-fleet-${SLURM_JOB_ID}\"\n";
    out += "export DLENV_FLEET_NODE=" + shell_quote(node_script()) + "\n";
    out += "results=$(mktemp)\n";
    out += "srun --nodes=" + nodes + " --ntasks=" + nodes
        + " --ntasks-per-node=1 --whole --kill-on-bad-exit=0 /bin/sh -c \"$DLENV_FLEET_NODE\" | tee \"$results\"\n";
    out += "outcome=$(awk -v nodes=" + nodes + " " + shell_quote(k_outcome_awk) + " \"$results\")\n";
    out += "rm -f \"$results\"\n";
    out += "echo \"dlenv-fleet-outcome $outcome\"\n";
    out += "exit \"$outcome\"\n";
    return out;
}

} // namespace dlenv::fleet
