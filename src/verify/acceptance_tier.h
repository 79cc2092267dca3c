#pragma once

#include "resolve/acceptance.h"
#include "verify/container_checks.h"
#include "verify/gpu_injection.h"
#include "verify/gpu_tier.h"

#include <cstdint>
#include <filesystem>
#include <optional>

namespace dlenv::verify {

// What the command line asks of the acceptance tier.
struct AcceptanceOptions {
    std::optional<std::filesystem::path> data_dir; // none: a synthetic set in the run's work directory
    std::optional<resolve::Acceptance> settings; // --acceptance FILE's, in place of the lock's
    std::optional<std::uint32_t> batch_size; // --batch-size, in place of the settings'
};

// The settings the job runs with: the command line's, else the lock's
// validation.acceptance, else the defaults; then the command line's batch size.
resolve::Acceptance acceptance_settings(
    const AcceptanceOptions& options, const std::optional<resolve::Acceptance>& locked);

// The directory in the container where the data directory is bound.
inline constexpr std::string_view k_acceptance_data_dir = "/mnt/dlenv-data";

// The size of /dev/shm for the DataLoader's workers: every batch in flight (each
// worker's prefetched ones and two more) as FP32 tensors, with half again to spare, and
// never under the runtime's usual 64 MiB.
std::uint32_t acceptance_shm_kib(const resolve::Acceptance& settings);

// Runs the acceptance tier's training job (kit/acceptance_tier.py) in the image: with
// the host's GPUs injected when admit_gpus admits them, else on the CPU, which still
// measures the data wait; the GPU utilisation is then `unavailable`, beside the report.
// The data directory is bound read-only, or read-write when it is empty (the kit writes
// its synthetic set there). Error(invalid_input) when `options.data_dir` is no directory.
GpuTierResult run_acceptance_tier(const ContainerContext& context, const HostFacts& host,
    const AcceptanceOptions& options, const resolve::Acceptance& settings, const GpuHost& gpu_host);

} // namespace dlenv::verify
