#include "cli/commands.h"

#include "cli/matrix_option.h"
#include "cli/output.h"
#include "host/doctor.h"
#include "workflow/doctor_inputs.h"

#include <iostream>

namespace dlenv::cli {
namespace {

struct DoctorArgs {
    std::string lock;
    std::string data_dir = ".";
    std::uint64_t read_mib = 256;
};

void print_findings(const std::vector<Finding>& findings)
{
    std::size_t failed = 0, warned = 0;
    for (const auto& f : findings) {
        failed += f.verdict == Verdict::fail;
        warned += f.verdict == Verdict::warn;
    }
    if (failed)
        std::cout << "fail: this machine is not ready for training (" << failed << " failed, " << warned
                  << (warned == 1 ? " warning)\n" : " warnings)\n");
    else if (warned)
        std::cout << "warn: this machine can train, with " << warned << (warned == 1 ? " warning\n" : " warnings\n");
    else
        std::cout << "ok: this machine is ready for training\n";
    for (const auto& f : findings) {
        std::string label(to_string(f.verdict));
        std::cout << "  " << label << std::string(9 - label.size(), ' ') << f.code << ": " << f.message << "\n";
        if (f.verdict == Verdict::warn || f.verdict == Verdict::fail)
            std::cout << "           why: " << f.why << "\n";
    }
}

int run_doctor(const DoctorArgs& args, const Options& options)
{
    auto findings
        = workflow::diagnose_this_host({ args.lock, args.data_dir, args.read_mib << 20 }, load_matrix(options));
    if (options.json)
        print_json(host::to_json(findings));
    else
        print_findings(findings);
    return worst_verdict(findings) == Verdict::fail ? 1 : 0;
}

} // namespace

void register_doctor(CLI::App& app, Options& options, int& exit_code)
{
    auto args = std::make_shared<DoctorArgs>();
    auto* cmd = app.add_subcommand("doctor",
        "Check this machine for training: driver, GPUs, CPU cores, RAM, swap, "
        "data read speed, GPU links; exit 1 when a check fails");
    cmd->add_option("--lock", args->lock, "Also check the driver against this lockfile's floor")->type_name("FILE");
    cmd->add_option("--data-dir", args->data_dir, "Measure the read speed of this directory (default: .)")
        ->type_name("DIR");
    cmd->add_option("--read-size", args->read_mib, "MiB to write and read back for the read speed (default: 256)")
        ->type_name("MIB")
        ->check(CLI::Range(1, 65536));
    cmd->add_flag("--json", options.json, "Print the findings as JSON");
    cmd->callback([args, &options, &exit_code] { exit_code = run_doctor(*args, options); });
}

} // namespace dlenv::cli
