#include "verify/runtime.h"

#include "core/canonical_json.h"
#include "core/error.h"
#include "core/file.h"
#include "core/subprocess.h"
#include "rootfs/mount_point.h"
#include "verify/engine.h"
#include "verify/runtime_config.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <sstream>

namespace dlenv::verify {
namespace {

const std::vector<std::string> k_runtimes = { "runc", "crun", "bwrap" }; // in the order they are preferred
const std::vector<std::string> k_engines = { "docker", "podman" };
constexpr int k_timeout_exit = 124; // timeout(1)'s status when the limit was reached

// The directories every runtime mounts afresh (proc, tmpfs, sysfs): what the image holds
// under them is hidden, so mounts below them need no mount point on disk.
constexpr std::string_view k_runtime_mounts[] = { "/proc", "/dev", "/sys", "/tmp" };

bool under_runtime_mount(std::string_view destination)
{
    for (std::string_view mounted : k_runtime_mounts)
        if (destination.starts_with(mounted) && destination.size() > mounted.size()
            && destination[mounted.size()] == '/')
            return true;
    return false;
}

// Gives every mount a place in the rootfs that no link of the image leads out of, and
// returns the spec with each bind's destination as resolved inside the image.
ContainerSpec place_mounts(const std::filesystem::path& rootfs, ContainerSpec spec)
{
    using rootfs::MountPointKind;
    for (std::string_view mounted : k_runtime_mounts)
        if (std::string placed = rootfs::make_mount_point(rootfs, mounted, MountPointKind::directory);
            placed != mounted)
            throw Error(ErrorCode::invalid_input,
                "the image's " + std::string(mounted) + " is a symbolic link to " + placed
                    + ", where a container needs a directory",
                "fix the image: make " + std::string(mounted) + " a directory");
    for (auto& bind : spec.binds)
        if (!under_runtime_mount(bind.destination))
            bind.destination = rootfs::make_mount_point(rootfs, bind.destination,
                std::filesystem::is_directory(bind.source) ? MountPointKind::directory : MountPointKind::file);
    return spec;
}

std::string container_id()
{
    static std::atomic<int> count = 0;
    return "dlenv-verify-" + std::to_string(::getpid()) + "-" + std::to_string(count++);
}

// Runs argv with a time limit, its standard error merged into the output (or written to
// `errors_file`) so that a runtime's complaint ends up in the report rather than on the
// terminal.
std::optional<ProcessResult> run_limited(
    const std::vector<std::string>& argv, int timeout_seconds, const std::filesystem::path& errors_file = {})
{
    std::vector<std::string> wrapped
        = { "/bin/sh", "-c", "f=$1; shift; if [ -n \"$f\" ]; then exec \"$@\" 2>\"$f\"; fi; exec \"$@\" 2>&1", "sh",
              errors_file.string(), "timeout", "--kill-after=5", std::to_string(timeout_seconds) };
    wrapped.insert(wrapped.end(), argv.begin(), argv.end());
    return run_process(wrapped);
}

} // namespace

std::optional<std::string> find_on_path(const std::string& program)
{
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : dir) / program;
        if (::access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate))
            return candidate.string();
    }
    return std::nullopt;
}

Runtime select_runtime(
    const std::string& forced, const std::function<std::optional<std::string>(const std::string&)>& find)
{
    if (!forced.empty()) {
        bool engine = std::find(k_engines.begin(), k_engines.end(), forced) != k_engines.end();
        if (!engine && std::find(k_runtimes.begin(), k_runtimes.end(), forced) == k_runtimes.end())
            throw Error(ErrorCode::invalid_input, "unknown runtime \"" + forced + "\"",
                "use runc, crun or bwrap, or the engine docker or podman");
        if (auto program = find(forced))
            return { forced, *program, {} };
        std::string package = forced == "docker" ? "docker.io" : forced;
        throw Error(ErrorCode::environment, forced + " is not on PATH",
            "install it (Debian and Ubuntu: `apt-get install " + package
                + "`), or leave out --runtime to use the first of runc, crun, bwrap found");
    }
    for (const auto& name : k_runtimes)
        if (auto program = find(name))
            return { name, *program, {} };
    throw Error(ErrorCode::environment, "no container runtime: none of runc, crun, bwrap is on PATH",
        "install one (Debian and Ubuntu: `apt-get install runc`, or `bubblewrap` for bwrap; "
        "RHEL: `dnf install runc`)");
}

ContainerRun run_container(const Runtime& runtime, const ContainerSpec& spec, const std::filesystem::path& rootfs,
    const std::filesystem::path& work_dir, int timeout_seconds, bool separate_errors)
{
    if (runtime.name == "bwrap" && !spec.hooks.empty())
        throw Error(ErrorCode::environment, "bwrap cannot run the hooks the GPU's CDI spec asks for",
            "install runc or crun (`apt-get install runc`), or pass --runtime runc");
    std::string id = container_id();
    std::vector<std::string> argv;
    std::vector<std::string> cleanup; // a killed run leaves its container behind
    if (runtime.is_engine()) {
        argv = engine_run_arguments(runtime, spec, runtime.image, id);
        cleanup = { runtime.program, "rm", "--force", id };
    } else {
        ContainerSpec placed = place_mounts(rootfs, spec);
        std::string root = std::filesystem::absolute(rootfs).string();
        if (runtime.name == "bwrap") {
            argv = bwrap_arguments(placed, root);
            argv.insert(argv.begin(), runtime.program);
        } else {
            write_file_atomic(work_dir / "config.json", to_canonical_json(runtime_config(placed, root)));
            std::string state = (work_dir / "state").string();
            argv = { runtime.program, "--root", state, "run", "--bundle", work_dir.string(), id };
            cleanup = { runtime.program, "--root", state, "delete", "--force", id };
        }
    }
    std::filesystem::path errors_file = separate_errors ? work_dir / "stderr" : std::filesystem::path();
    if (separate_errors) // bwrap and the engines write no bundle that would have made the directory
        std::filesystem::create_directories(work_dir);
    auto start = std::chrono::steady_clock::now();
    auto result = run_limited(argv, timeout_seconds, errors_file);
    ContainerRun run;
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!cleanup.empty())
        run_limited(cleanup, 30);
    if (!result)
        throw Error(ErrorCode::environment, "cannot start " + runtime.program,
            "check that it runs: `" + runtime.program + " --version`");
    run.exit_code = result->exit_code;
    run.output = result->out;
    if (separate_errors && std::filesystem::exists(errors_file))
        run.errors = read_file(errors_file);
    run.timed_out = result->exit_code == k_timeout_exit || result->exit_code == 128 + 9;
    return run;
}

} // namespace dlenv::verify
