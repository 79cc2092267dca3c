#include "cli/commands.h"

#include "cli/lockfile_argument.h"
#include "core/file.h"
#include "core/output_file.h"
#include "lock/lockfile.h"
#include "lock/requirements_file.h"

#include <iostream>
#include <memory>

namespace dlenv::cli {
namespace {

struct ExportArgs {
    std::string lockfile;
    std::string output;
};

int run_export_requirements(const ExportArgs& args)
{
    std::string path = lockfile_argument(args.lockfile, "export requirements");
    lock::Lockfile lock = lock::Lockfile::parse(path, read_file(path));
    std::string text = lock::requirements_file(lock);
    if (args.output.empty())
        std::cout << text;
    else
        write_output_file(args.output, text);
    return 0;
}

} // namespace

void register_export(CLI::App& app, Options&, int& exit_code)
{
    auto args = std::make_shared<ExportArgs>();
    auto* cmd = app.add_subcommand("export", "Write what a lock pins in another tool's format");
    cmd->require_subcommand(1);
    auto* requirements = cmd->add_subcommand(
        "requirements", "The lock's packages for `pip install --no-deps --require-hashes -r`: URL and sha256 each");
    requirements->add_option(
        "lockfile", args->lockfile, "The lockfile (default: the only *.lock.json in . or lockfiles/)");
    requirements->add_option("-o,--output", args->output, "Write to FILE instead of standard output")
        ->type_name("FILE");
    requirements->callback([args, &exit_code] { exit_code = run_export_requirements(*args); });
}

} // namespace dlenv::cli
