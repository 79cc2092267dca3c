#include "core/error.h"
#include "fleet/node_script.h"
#include "fleet/sbatch_script.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

const std::string k_hex(64, 'c');

fleet::FleetJob team_job()
{
    return { "team/base", ImageReference::parse("127.0.0.1:5000/team/base:1"), Digest::from_hex(k_hex),
        { "static", "gpu", "framework" }, 4, 8, true };
}

// The lines after the script's own, which every job shares.
std::string tail(const std::string& nodes)
{
    return "export DLENV_FLEET_STORE=\"${TMPDIR:-/tmp}/dlenv-fleet-${SLURM_JOB_ID}\"\n"
           "export DLENV_FLEET_NODE="
        + fleet::shell_quote(fleet::node_script())
        + "\n"
          "results=$(mktemp)\n"
          "srun --nodes="
        + nodes + " --ntasks=" + nodes
        + " --ntasks-per-node=1 --whole --kill-on-bad-exit=0 /bin/sh -c \"$DLENV_FLEET_NODE\" | tee \"$results\"\n"
          "outcome=$(awk -v nodes="
        + nodes
        + R"( '$1 == "dlenv-fleet-result" { seen++; if ($3 == "1") failed = 1; else if ($3 == "2") bad = 1; else if ($3 != "0") unrun = 1 }
END { if (failed) print 1; else if (bad) print 2; else if (unrun || seen < nodes) print 3; else print 0 }' "$results")
rm -f "$results"
echo "dlenv-fleet-outcome $outcome"
exit "$outcome"
)";
}

} // namespace

TEST_CASE("the sbatch script asks for whole nodes, one task each, and their GPUs", "[fleet]")
{
    fleet::SlurmSettings settings;
    settings.cpus_per_task = 32;
    settings.memory = "512G";
    settings.partition = "gpu";
    settings.dlenv = "/opt/dlenv/bin/dlenv";
    CHECK(fleet::sbatch_script(team_job(), settings)
        == R"(#!/bin/bash
#SBATCH --job-name=dlenv-verify-team-base-cccccccc
#SBATCH --nodes=4
#SBATCH --ntasks-per-node=1
#SBATCH --exclusive
#SBATCH --gres=gpu:8
#SBATCH --cpus-per-task=32
#SBATCH --mem=512G
#SBATCH --partition=gpu
#SBATCH --output=dlenv-fleet-%j.out
# dlenv fleet slurm: verify 127.0.0.1:5000/team/base@sha256:)"
            + k_hex + R"( on each node, tiers static,gpu,framework.
# Exit code: 0 every node passed, 1 one failed, 2 bad input, 3 one could not run.
set -u
export DLENV_FLEET_DLENV='/opt/dlenv/bin/dlenv'
export DLENV_FLEET_IMAGE='127.0.0.1:5000/team/base@sha256:)"
            + k_hex + R"('
export DLENV_FLEET_STORED='127.0.0.1:5000/team/base:sha256-)"
            + k_hex + R"('
export DLENV_FLEET_TIERS='static,gpu,framework'
export DLENV_FLEET_PUSH='127.0.0.1:5000/team/base:1'
export DLENV_FLEET_INSECURE='1'
)" + tail("4"));
}

TEST_CASE("by default the script asks for all of each node's memory and no GPU gres when there are none", "[fleet]")
{
    fleet::FleetJob job = team_job();
    job.nodes = 1;
    job.gpus_per_node = 0;
    job.insecure = false;
    job.tiers = { "static", "gpu" };
    CHECK(fleet::sbatch_script(job, {})
        == R"(#!/bin/bash
#SBATCH --job-name=dlenv-verify-team-base-cccccccc
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=1
#SBATCH --exclusive
#SBATCH --mem=0
#SBATCH --output=dlenv-fleet-%j.out
# dlenv fleet slurm: verify 127.0.0.1:5000/team/base@sha256:)"
            + k_hex + R"( on each node, tiers static,gpu.
# Exit code: 0 every node passed, 1 one failed, 2 bad input, 3 one could not run.
set -u
export DLENV_FLEET_DLENV='dlenv'
export DLENV_FLEET_IMAGE='127.0.0.1:5000/team/base@sha256:)"
            + k_hex + R"('
export DLENV_FLEET_STORED='127.0.0.1:5000/team/base:sha256-)"
            + k_hex + R"('
export DLENV_FLEET_TIERS='static,gpu'
export DLENV_FLEET_PUSH='127.0.0.1:5000/team/base:1'
export DLENV_FLEET_INSECURE='0'
)" + tail("1"));
}

TEST_CASE("the node program can be single-quoted and reads only its environment", "[fleet]")
{
    CHECK(fleet::node_script().find('\'') == std::string::npos);
    CHECK(fleet::shell_quote("it's") == "'it'\\''s'");
}

TEST_CASE("Slurm settings with a shell metacharacter are refused naming the option", "[fleet]")
{
    auto refusal = [](fleet::SlurmSettings settings) {
        try {
            fleet::sbatch_script(team_job(), settings);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    fleet::SlurmSettings memory;
    memory.memory = "1G;reboot";
    CHECK(refusal(memory) == "--mem: holds a character a fleet job refuses at offset 2");
    fleet::SlurmSettings partition;
    partition.partition = "gpu $(id)";
    CHECK(refusal(partition) == "--partition: holds a character a fleet job refuses at offset 3");
    fleet::SlurmSettings dlenv;
    dlenv.dlenv = "dlenv`id`";
    CHECK(refusal(dlenv) == "--dlenv: holds a character a fleet job refuses at offset 5");
}
