#pragma once

#include "verify/image.h"
#include "verify/promises.h"
#include "verify/report.h"
#include "verify/runtime.h"

#include <filesystem>
#include <optional>
#include <vector>

namespace dlenv::verify {

// Where the in-container checks run: the unpacked image, a private directory for each
// run's bundle, and the time each run may take.
struct ContainerContext {
    Runtime runtime;
    std::filesystem::path rootfs;
    std::filesystem::path work_dir;
    ImageProcess process;
    int timeout_seconds = 60;
};

// The container spec for running `args` as the image would run its own process: its
// environment, working directory and user (numeric, or a name from the image's
// /etc/passwd and /etc/group). Error(invalid_input) for a user the image does not know.
ContainerSpec spec_for(const ContainerContext& context, std::vector<std::string> args);

// Starts `shell` (the entrypoint's interpreter) in the image through the runtime and has
// it read the kit's lock: findings `container-start` and `kit-readable`, and the
// start-up time as a figure.
void check_container_start(const ContainerContext& context, const std::optional<std::string>& shell,
    std::vector<Finding>& findings, std::vector<Figure>& figures);

// Imports the framework on the CPU with the image's python3 and compares its
// __version__ with the lock (`framework-import`); a skip, with the reason, when the lock
// pins no framework package or the image has no python3.
void check_framework_import(const ContainerContext& context, const Promises& promises, std::vector<Finding>& findings);

} // namespace dlenv::verify
