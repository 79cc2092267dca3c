#pragma once

#include "verify/container_spec.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace dlenv::verify {

// The program that runs containers: an OCI runtime that reads a bundle (runc, crun),
// bwrap given the same view of the system through its arguments, or a container engine
// (docker, podman) that runs the image once it has been loaded into it.
struct Runtime {
    std::string name; // "runc", "crun", "bwrap", "docker", "podman"
    std::string program; // its path
    std::string image {}; // an engine's: the ID of the image loaded into it (see EngineImage)

    bool is_engine() const { return name == "docker" || name == "podman"; }
};

// Finds a program the way a shell does, through $PATH; nullopt when it is not there.
std::optional<std::string> find_on_path(const std::string& program);

// `forced` ("runc", "crun", "bwrap", "docker", "podman") when given, else the first of
// runc, crun and bwrap that `find` finds: an engine is used only when asked for.
// Error(invalid_input) for another name; Error(environment) when the runtime asked for,
// or every runtime, is missing, saying which package to install.
Runtime select_runtime(const std::string& forced,
    const std::function<std::optional<std::string>(const std::string&)>& find = find_on_path);

struct ContainerRun {
    int exit_code = 0;
    std::string output; // standard output, and standard error too unless kept apart
    std::string errors; // standard error, when the run kept it apart
    bool timed_out = false;
    double seconds = 0;
};

// Starts `spec` on the unpacked image at `rootfs` (an engine: on `runtime.image`) and
// waits at most `timeout_seconds` (then the process is killed and `timed_out` set).
// `work_dir` receives the bundle (config.json) and the runtime's state and must be
// private to this run. Mount points the image lacks (/proc, /dev, /sys, /tmp, bind
// targets) are created in `rootfs` first, each resolved inside it (make_mount_point), and
// binds land where the image's links lead inside `rootfs`, never outside it;
// Error(invalid_input) when /proc, /dev, /sys or /tmp is a link or no directory. With
// `separate_errors`, standard error (the
// runtime's and the process's) goes to `errors` instead of being merged into `output`,
// for a process whose standard output is data. Error(environment) when the runtime
// cannot be started or cannot honour the
// spec (bwrap runs no hooks).
ContainerRun run_container(const Runtime& runtime, const ContainerSpec& spec, const std::filesystem::path& rootfs,
    const std::filesystem::path& work_dir, int timeout_seconds, bool separate_errors = false);

} // namespace dlenv::verify
