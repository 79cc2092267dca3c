#include "cli/commands.h"

#include "core/image_reference.h"
#include "cli/matrix_option.h"
#include "cli/output.h"
#include "cli/registry_options.h"
#include "cli/store_output.h"
#include "core/error.h"
#include "host/gpu_probe.h"
#include "lock/lockfile.h"
#include "lock/package_lock.h"
#include "lock/package_plan.h"
#include "registry/manifests.h"
#include "registry/platform.h"
#include "resolve/stack.h"

#include <filesystem>
#include <iostream>
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

// Pins the lock's base to what its tag names now: the tag's digest and the image manifest
// for the lock's platform, so every later build pulls exactly that.
void pin_base_image(lock::Lockfile& lockfile, const RegistryArgs& args)
{
    std::string base = lockfile.base_reference();
    if (!is_registry_reference(base))
        return;
    try {
        ImageReference reference = ImageReference::parse(base);
        std::unique_ptr<registry::Session> session = registry::open_session(reference, args.insecure);
        registry::ResolvedImage image =
            registry::resolve_image(*session, reference, registry::parse_platform(lockfile.base_platform()));
        lockfile.pin_base(image.digest.text(), image.manifest.digest.text());
    } catch (const Error& e) {
        throw Error(e.code(), e.message(), e.hint().empty() ? "pass --offline to lock without pinning the base image"
                                                           : e.hint() + "; or pass --offline to lock without pinning "
                                                                        "the base image")
            .with_context("pin base image " + base);
    }
}

// The profile's package sources with --index NAME=URL over them, or the wheelhouse alone.
lock::PackageSources package_sources(const LockArgs& args, const resolve::Profile& profile,
                                     const resolve::Stack& stack)
{
    if (!args.wheelhouse.empty())
        return lock::wheelhouse_sources(args.wheelhouse);
    lock::PackageSources sources = lock::package_sources(profile, stack);
    for (const auto& option : args.indexes) {
        std::size_t equals = option.find('=');
        if (equals == std::string::npos || equals == 0)
            throw Error(ErrorCode::invalid_input, "--index " + option + ": expected NAME=URL",
                        "for example --index pypi=https://mirror.example/simple/");
        sources.indexes[option.substr(0, equals)] = option.substr(equals + 1);
    }
    return sources;
}

// The closure, with the request under way on one line of a terminal.
std::vector<lock::LockedPackage> lock_python_packages(const resolve::Profile& profile, const resolve::Stack& stack,
                                                      const lock::PackageSources& sources, const Options& options)
{
    bool progress = shows_progress(options);
    auto report = [progress](const std::string& what) {
        if (progress)
            std::cerr << "\r\033[K  reading " << what << std::flush;
    };
    auto clear = [progress] {
        if (progress)
            std::cerr << "\r\033[K" << std::flush;
    };
    try {
        auto packages = lock::lock_packages(lock::package_request(profile, stack), sources, report);
        clear();
        return packages;
    } catch (...) {
        clear();
        throw;
    }
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

// Host facts from the flags, and from the driver when --host asks for it.
resolve::HostFacts host_facts(const LockArgs& args, const matrix::Matrix& matrix)
{
    resolve::HostFacts host;
    if (!args.driver.empty())
        host.driver = DriverVersion::parse(args.driver);
    host.gpus = args.gpus;
    if (!args.host)
        return host;
    auto detected = host::probe_driver();
    if (!detected)
        throw Error(ErrorCode::environment, "--host found no NVIDIA driver (neither NVML nor nvidia-smi answered)",
                    "run on the GPU machine, or pass --driver and --gpu by hand");
    if (!host.driver)
        host.driver = detected->driver;
    for (const auto& gpu : detected->gpus) {
        if (matrix.find_gpu(gpu.name))
            host.gpus.push_back(gpu.name);
        else if (gpu.compute_capability)
            host.gpus.push_back(gpu.compute_capability->text());
    }
    return host;
}

std::string summary(const resolve::Stack& stack)
{
    std::string out = stack.framework.name + " " + stack.framework.version.str();
    for (const auto& c : stack.companions)
        out += ", " + c.name + " " + c.version.str();
    out += "; CUDA " + stack.cuda.text();
    if (stack.cudnn)
        out += ", cuDNN " + *stack.cudnn;
    return out + "; Python " + stack.python.text() + "; driver >= " + stack.toolkit_driver.text() +
           (stack.minor_version_driver ? " (>= " + stack.minor_version_driver->text() + " under minor-version "
                                                                                      "compatibility)"
                                       : "");
}

int run_lock(const LockArgs& args, const Options& options)
{
    const auto& matrix = load_matrix(options);
    resolve::Profile profile = resolve::load_profile(args.profile);
    resolve::HostFacts host = host_facts(args, matrix);
    resolve::Resolution resolution = resolve::resolve_profile(matrix, profile, host);
    std::string subject = "profile " + profile.name;
    if (!resolution.stack) {
        if (options.json)
            print_json(resolution.report.to_json());
        else
            print_report(resolution.report, subject);
        return 1;
    }
    std::string path = args.output.empty() ? "lockfiles/" + profile.name + ".lock.json" : args.output;
    lock::PackageSources sources = package_sources(args, profile, *resolution.stack);
    std::optional<std::filesystem::path> files_root;
    if (!args.files_root.empty())
        files_root = args.files_root;
    auto lockfile = lock::Lockfile::from_stack(
        profile, matrix.sha256(), host, *resolution.stack, resolution.report, sources, path, files_root);
    if (!args.offline)
        pin_base_image(lockfile, args.registry);
    if (!args.offline || !args.wheelhouse.empty())
        lockfile.set_packages(lock_python_packages(profile, *resolution.stack, sources, options));
    lockfile.write(path);
    std::ostream& out = report_stream({ path });
    if (options.json) {
        nlohmann::json report = resolution.report.to_json();
        report["lockfile"] = path;
        report["digest"] = lockfile.digest();
        auto packages = lockfile.packages();
        report["packages"] = packages ? nlohmann::json(packages->size()) : nlohmann::json(nullptr);
        print_json(report, out);
    } else {
        if (resolution.report.verdict() == resolve::Severity::warning)
            print_report(resolution.report, subject, out);
        out << "locked " << profile.name << " -> " << path << "\n  " << summary(*resolution.stack) << "\n";
        if (std::optional<std::string> manifest = lockfile.base_manifest())
            out << "  base " << lockfile.base_reference() << " pinned to " << *manifest << "\n";
        if (auto packages = lockfile.packages())
            out << "  " << packages_summary(*packages) << "\n";
        else
            out << "  Python packages not locked: --offline without --wheelhouse\n";
    }
    return 0;
}

} // namespace

void register_lock(CLI::App& app, Options& options, int& exit_code)
{
    auto args = std::make_shared<LockArgs>();
    auto* cmd = app.add_subcommand("lock", "Resolve a profile against the matrices and write its lockfile");
    cmd->add_option("profile", args->profile, "A shipped profile's name (see `dlenv profiles`) or a profile file")
        ->required()
        ->type_name("PROFILE");
    cmd->add_option("-o,--output", args->output, "Where to write the lock (default: lockfiles/NAME.lock.json; - for standard output)")
        ->type_name("FILE");
    cmd->add_option("--driver", args->driver, "Check against this host driver instead of the profile's fleet floor")
        ->type_name("X.Y[.Z]");
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
    cmd->add_flag("--json", options.json, "Print the outcome as JSON");
    cmd->callback([args, &options, &exit_code] { exit_code = run_lock(*args, options); });
}

} // namespace dlenv::cli
