#pragma once

#include "verify/container_checks.h"
#include "verify/gpu_injection.h"
#include "verify/gpu_tier_evaluation.h"
#include "verify/report.h"

#include <optional>
#include <string>
#include <string_view>

namespace dlenv::verify {

// What a GPU tier ("gpu" or "framework") gave on this host: its report, or why it could
// not run here (no driver or GPU, an NVIDIA_REQUIRE_CUDA the driver does not meet, GPU
// injection that cannot be planned, a runtime that cannot run the injection).
struct GpuTierResult {
    std::optional<TierReport> report;
    std::string unavailable;
};

// Why no GPU tier can run on a host without an NVIDIA driver.
std::string no_gpu_reason();

// Runs `tier`'s kit in the unpacked image with the host's GPUs injected as `gpu_host`
// plans (the real host: this_host()) and evaluates its output against the embedded
// matrix and `thresholds`. The report starts with `require-cuda` (when the image sets
// NVIDIA_REQUIRE_CUDA) and `gpu-injection` passes, then the kit's findings and figures
// (see evaluate_kit_output), or one failed `kit-run` finding when the kit gave none.
GpuTierResult run_gpu_tier(std::string_view tier, const ContainerContext& context, const HostFacts& host,
    const lock::Thresholds& thresholds, const GpuHost& gpu_host);

} // namespace dlenv::verify
