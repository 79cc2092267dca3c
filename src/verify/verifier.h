#pragma once

#include "verify/acceptance_tier.h"
#include "verify/report.h"

#include <filesystem>
#include <string>
#include <vector>

namespace dlenv::verify {

constexpr std::string_view k_tier_static = "static";
constexpr std::string_view k_tier_gpu = "gpu";
constexpr std::string_view k_tier_framework = "framework";
constexpr std::string_view k_tier_acceptance = "acceptance";

struct VerifyRequest {
    std::filesystem::path store_dir;
    std::string name;
    std::string tag = "latest";
    std::string platform; // of a multi-platform image ("linux/arm64"); "": this machine's
    std::vector<std::string> tiers; // empty: the tiers the image's lock asks for
    std::string runtime; // "": the first of runc, crun, bwrap on PATH
    int timeout_seconds = 60; // for each run in the container
    AcceptanceOptions acceptance; // the acceptance tier's data directory and settings
};

// Verifies NAME:TAG of the store (of an image index, its image for `platform`): unpacks it into a private temporary
// directory (removed afterwards), runs the requested tiers, and records each tier that ran against the image digest in
// the store. The gpu and framework tiers run the image's validation kit with the host's GPUs injected (see gpu_tier.h);
// where they cannot run (no driver or GPU, a driver the image refuses, GPUs that cannot be injected, an image for
// another machine's platform) they are listed in `Report::unavailable` with the reason, never reported as passed. The
// acceptance tier (acceptance_tier.h) runs its training job on the CPU where the GPUs
// cannot be had: its report holds the data wait, and `unavailable` says that the GPU
// utilisation was not measured.
// Error(not_found) for an unknown name or tag, Error(invalid_input) for an unknown tier,
// Error(environment) when only the gpu and framework tiers were asked for on a machine
// without an NVIDIA driver, or no runtime is installed.
Report verify_image(const VerifyRequest& request);

} // namespace dlenv::verify
