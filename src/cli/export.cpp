#include "cli/commands.h"

#include "cli/dockerfile_wheels_option.h"
#include "cli/lockfile_argument.h"
#include "cli/matrix_option.h"
#include "cli/store_output.h"
#include "core/file.h"
#include "core/output_file.h"
#include "image/dockerfile.h"
#include "lock/lockfile.h"
#include "lock/requirements_file.h"
#include "store/store.h"

#include <iostream>
#include <memory>

namespace dlenv::cli {
namespace {

struct ExportArgs {
    std::string lockfile;
    std::string output;
    std::string wheels = "context";
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

// The base is not read: the Dockerfile asks the image's python3 where the packages go as
// it builds. The store is read only for the wheels the context carries.
int run_export_dockerfile(const ExportArgs& args, const Options& options)
{
    std::string path = lockfile_argument(args.lockfile, "export dockerfile");
    lock::Lockfile lock = lock::Lockfile::parse(path, read_file(path));
    image::DockerWheels wheels = image::parse_docker_wheels(args.wheels);
    std::filesystem::path dir = store_dir(options);
    std::optional<store::Store> store;
    if (!image::context_wheels(lock, wheels).empty() && std::filesystem::exists(dir))
        store.emplace(store::Store::open(dir));
    image::write_docker_context(
        lock, args.output, load_matrix(options), std::nullopt, wheels, store ? &*store : nullptr);
    return 0;
}

} // namespace

void register_export(CLI::App& app, Options& options, int& exit_code)
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

    auto* dockerfile = cmd->add_subcommand("dockerfile",
        "A Dockerfile and its build context for the lock, written without reading its base: its python3 is "
        "asked where the packages go as the image builds");
    dockerfile->add_option(
        "lockfile", args->lockfile, "The lockfile (default: the only *.lock.json in . or lockfiles/)");
    dockerfile
        ->add_option("-o,--output", args->output,
            "The Dockerfile; its context goes beside it (- for standard "
            "output, the context in the working directory)")
        ->type_name("FILE")
        ->required();
    add_dockerfile_wheels_option(dockerfile, "--wheels", args->wheels);
    dockerfile->add_option("--store", options.store_dir, "Where the wheels are (default: $DLENV_STORE, else ./.dlenv)")
        ->type_name("DIR");
    dockerfile->callback([args, &options, &exit_code] { exit_code = run_export_dockerfile(*args, options); });
}

} // namespace dlenv::cli
