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

// How a run that failed ended, for a message: "did not finish within 60 s", or its exit
// status and the last line it wrote (to standard error, when the run kept it apart).
std::string describe_failure(const ContainerRun& run, int timeout_seconds);

} // namespace dlenv::verify
