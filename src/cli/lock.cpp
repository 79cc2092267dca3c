#include "cli/commands.h"

#include "cli/matrix_option.h"
#include "cli/output.h"
#include "cli/registry_options.h"
#include "cli/store_output.h"
#include "host/gpu_probe.h"
#include "workflow/lock_profile.h"

#include <iostream>
#include <map>
#include <optional>

namespace dlenv::cli {
namespace {

struct LockArgs {
    std::string profile;
    std::string output;
    std::string driver;
    std::vector<std::string> gpus;
    bool host = false;
    bool offline = false;
    std::string wheelhouse;
    std::vector<std::string> indexes; // NAME=URL
    std::string files_root;
    RegistryArgs registry;
};

// The request under way on one line of a terminal, cleared once the packages are locked.
workflow::PackageProgress package_progress(bool shown)
{
    if (!shown)
        return {};
    return { [](const std::string& what) { std::cerr << "\r\033[K  reading " << what << std::flush; },
        [] { std::cerr << "\r\033[K" << std::flush; } };
}

workflow::LockRequest lock_request(const LockArgs& args, const Options& options)
{
    workflow::LockRequest request;
    request.profile = resolve::load_profile(args.profile);
    if (!args.driver.empty()) {
        auto driver = resolve::DriverRequest::parse(args.driver);
        request.host.driver = driver.release;
        request.host.driver_branch = driver.branch;
    }
    request.host.gpus = args.gpus;
    if (args.host)
        request.host.detect = host::probe_driver;
    if (!args.wheelhouse.empty())
        request.sources.wheelhouse = args.wheelhouse;
    request.sources.indexes = args.indexes;
    request.output = args.output;
    if (!args.files_root.empty())
        request.files_root = args.files_root;
    request.offline = args.offline;
    request.insecure = args.registry.insecure;
    request.store_dir = store_dir(options);
    request.progress = package_progress(shows_progress(options));
    return request;
}

std::string packages_summary(const std::vector<lock::LockedPackage>& packages)
{
    std::map<std::string, int> per_index;
    for (const auto& package : packages)
        ++per_index[package.index];
    std::string out = std::to_string(packages.size()) + " Python packages pinned by sha256";
    std::string separator = " (";
    for (const auto& [index, count] : per_index) {
        out += separator + std::to_string(count) + " from " + index;
        separator = ", ";
    }
    return out + (per_index.empty() ? "" : ")");
}

std::string summary(const resolve::Stack& stack)
{
    std::string out = stack.framework.name + " " + stack.framework.version.str();
    for (const auto& c : stack.companions)
        out += ", " + c.name + " " + c.version.str();
    for (const auto& a : stack.also)
        out += ", " + a.framework.name + " " + a.framework.version.str();
    out += "; CUDA " + stack.cuda.text();
    if (stack.cudnn)
        out += ", cuDNN " + *stack.cudnn;
    return out + "; Python " + stack.python.text() + "; driver >= " + stack.toolkit_driver.text()
        + (stack.minor_version_driver ? " (>= " + stack.minor_version_driver->text()
                    + " under minor-version "
                      "compatibility)"
                                      : "");
}

int run_lock(const LockArgs& args, const Options& options)
{
    const auto& matrix = load_matrix(options);
    workflow::LockRequest request = lock_request(args, options);
    workflow::LockResult result = workflow::lock_profile(matrix, request);
    const resolve::Report& report = result.resolution.report;
    std::string subject = "profile " + request.profile.name;
    if (!result.lockfile) {
        if (options.json)
            print_json(report.to_json());
        else
            print_report(report, subject);
        return 1;
    }
    const lock::Lockfile& lockfile = *result.lockfile;
    std::ostream& out = report_stream({ result.path });
    if (options.json) {
        nlohmann::json json = report.to_json();
        json["lockfile"] = result.path;
        json["digest"] = lockfile.digest().text();
        const auto& packages = lockfile.packages();
        json["packages"] = packages ? nlohmann::json(packages->size()) : nlohmann::json(nullptr);
        const auto& system = lockfile.system_packages();
        json["system_packages"] = system ? nlohmann::json(system->packages.size()) : nlohmann::json(nullptr);
        print_json(json, out);
    } else {
        if (report.verdict() == Verdict::warn)
            print_report(report, subject, out);
        out << "locked " << request.profile.name << " -> " << result.path << "\n  " << summary(*result.resolution.stack)
            << "\n";
        if (const auto& manifest = lockfile.base_image().manifest)
            out << "  base " << lockfile.base_image().reference << " pinned to " << manifest->text() << "\n";
        if (const auto& packages = lockfile.packages())
            out << "  " << packages_summary(*packages) << "\n";
        else
            out << "  Python packages not locked: --offline without --wheelhouse\n";
        if (const auto& system = lockfile.system_packages())
            out << "  " << system->packages.size() << " system packages pinned by sha256 from " << system->archive.url
                << " (" << system->archive.origin << ")\n";
        else if (!request.profile.system_packages.empty())
            out << "  system packages not locked: --offline\n";
    }
    return 0;
}

} // namespace

void register_lock(CLI::App& app, Options& options, int& exit_code)
{
    auto args = std::make_shared<LockArgs>();
    auto* cmd = app.add_subcommand("lock",
        "Resolve a profile against the matrices and write its lockfile; a profile's `also` frameworks are "
        "locked beside its framework once they can share one environment");
    cmd->add_option("profile", args->profile, "A shipped profile's name (see `dlenv profiles`) or a profile file")
        ->required()
        ->type_name("PROFILE");
    cmd->add_option("-o,--output", args->output,
           "Where to write the lock (default: lockfiles/NAME.lock.json; - for standard output)")
        ->type_name("FILE");
    cmd->add_option("--driver", args->driver,
           "Check against this host driver instead of the profile's fleet floor; a branch alone (535 or R535) is "
           "its newest release on record")
        ->type_name("X.Y[.Z]|[R]BRANCH");
    cmd->add_option("--gpu", args->gpus, "A GPU of the host, in addition to the profile's")->type_name("MODEL");
    cmd->add_flag("--host", args->host, "Detect the driver and GPUs of this machine (NVML, else nvidia-smi)");
    cmd->add_flag("--offline", args->offline,
        "Ask no registry or index: the base stays unpinned, and the packages too unless --wheelhouse");
    cmd->add_option("--wheelhouse", args->wheelhouse, "Lock every Python package from this folder of wheels")
        ->type_name("DIR")
        ->check(CLI::ExistingDirectory);
    cmd->add_option("--index", args->indexes, "Serve the index NAME from URL instead (a mirror), or add it")
        ->type_name("NAME=URL");
    cmd->add_option("--files-root", args->files_root,
           "Allow the profile's files inside DIR (default: only inside the profile's directory)")
        ->type_name("DIR")
        ->check(CLI::ExistingDirectory);
    add_registry_options(cmd, args->registry);
    cmd->add_option("--store", options.store_dir,
           "The store a base is brought into to lock system packages (default: $DLENV_STORE, else ./.dlenv)")
        ->type_name("DIR");
    cmd->add_flag("--json", options.json, "Print the outcome as JSON");
    cmd->callback([args, &options, &exit_code] { exit_code = run_lock(*args, options); });
}

} // namespace dlenv::cli
