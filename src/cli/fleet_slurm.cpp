#include "cli/fleet.h"

#include "core/error.h"
#include "core/file.h"
#include "core/output_file.h"
#include "core/subprocess.h"
#include "core/temp_directory.h"
#include "fleet/node_script.h"
#include "fleet/sbatch_script.h"
#include "fleet/slurm_results.h"

#include <filesystem>
#include <iostream>
#include <memory>

namespace dlenv::cli {
namespace {

namespace fs = std::filesystem;

struct SlurmArgs {
    FleetArgs fleet;
    fleet::SlurmSettings slurm;
    unsigned cpus_per_task = 0; // 0: not given
    std::string output;
    bool submit = false;
};

// The job id `sbatch --parsable` prints: "ID" or "ID;CLUSTER".
std::string job_id(const std::string& out)
{
    std::string id = out.substr(0, out.find_first_of(";\n"));
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
        return {};
    return id;
}

// Submits the script, waits for the job, prints each node's result; returns the job's code.
int submit(const std::string& script)
{
    TempDirectory dir(fs::temp_directory_path(), "dlenv-fleet-");
    fs::path file = dir.path() / "verify.sbatch";
    write_file_atomic(file, script);
    std::optional<ProcessResult> result = run_process({ "sbatch", "--parsable", "--wait", file.string() });
    if (!result)
        throw Error(ErrorCode::environment, "sbatch: not found",
            "run this where Slurm's client commands are installed, or submit the script -o writes yourself");
    std::string id = job_id(result->out);
    if (id.empty())
        throw Error(ErrorCode::environment, "sbatch submitted no job (exit " + std::to_string(result->exit_code) + ")",
            "sbatch says why above");
    std::cout << "submitted batch job " << id << "\n";
    std::string name = fleet::k_slurm_output;
    fs::path output = fs::current_path() / name.replace(name.find("%j"), 2, id);
    int code = result->exit_code >= 0 && result->exit_code <= fleet::k_node_not_run ? result->exit_code
                                                                                    : fleet::k_node_not_run;
    if (!fs::is_regular_file(output))
        std::cout << "  no output at " << output.string() << ": the nodes' results are where the cluster keeps it\n";
    else
        for (const auto& node : fleet::read_node_results(read_file(output)))
            std::cout << "  " << node.node << ": " << fleet::outcome_text(node.exit_code) << " (exit " << node.exit_code
                      << ")\n";
    std::cout << "job " << id << ": " << fleet::outcome_text(code) << " (exit " << code << ")\n";
    return code;
}

int run_slurm(SlurmArgs& args, const Options& options)
{
    if (args.cpus_per_task)
        args.slurm.cpus_per_task = args.cpus_per_task;
    std::string script = fleet::sbatch_script(fleet_job(args.fleet, options), args.slurm);
    if (!args.output.empty() || !args.submit)
        write_output_file(args.output.empty() ? "-" : args.output, script);
    return args.submit ? submit(script) : 0;
}

} // namespace

void register_fleet_slurm(CLI::App& fleet, Options& options, int& exit_code)
{
    auto args = std::make_shared<SlurmArgs>();
    auto* cmd = fleet.add_subcommand("slurm",
        "Write an sbatch script that verifies the image on each of N whole nodes (pull by digest, verify, push "
        "back); with --submit, run it and exit with the job's outcome");
    add_fleet_options(cmd, args->fleet, options);
    cmd->add_option("--cpus-per-task", args->cpus_per_task,
           "CPUs for each node's task (default: none asked; --exclusive gives the task the whole node)")
        ->type_name("N")
        ->check(CLI::Range(1, 100000));
    cmd->add_option("--mem", args->slurm.memory,
           "Memory for each node, as sbatch --mem reads it (default 0: all the memory of each node)")
        ->type_name("SIZE");
    cmd->add_option("--partition", args->slurm.partition, "The partition (default: the cluster's)")->type_name("NAME");
    cmd->add_option("--dlenv", args->slurm.dlenv, "The dlenv program on the nodes (default: dlenv on their PATH)")
        ->type_name("PATH");
    cmd->add_option("-o,--output", args->output, "Write the script to FILE (default: standard output, unless --submit)")
        ->type_name("FILE");
    cmd->add_flag("--submit", args->submit,
        "Submit it with sbatch --wait from this directory, print each node's result from the job's output "
        "(dlenv-fleet-JOBID.out here) and exit with the job's code");
    cmd->callback([args, &options, &exit_code] { exit_code = run_slurm(*args, options); });
}

} // namespace dlenv::cli
