#pragma once

#include "verify/container_checks.h"
#include "verify/gpu_injection.h"
#include "verify/gpu_tier_evaluation.h"
#include "verify/report.h"

#include "core/error.h"

#include <optional>
#include <string>
#include <string_view>

namespace dlenv::verify {

// What a GPU tier ("gpu", "framework", "acceptance") gave on this host: its report, or why
// it could not run here (no driver or GPU, an NVIDIA_REQUIRE_CUDA the driver does not
// meet, GPU injection that cannot be planned, a runtime that cannot run the injection);
// the acceptance tier's CPU run gives both, the report and what it could not measure.
struct GpuTierResult {
    std::optional<TierReport> report;
    std::string unavailable;
};

// Why no GPU tier can run on a host without an NVIDIA driver.
std::string no_gpu_reason();

// Whether the host's GPUs can be given to the image: the `require-cuda` (when the image
// sets NVIDIA_REQUIRE_CUDA) and `gpu-injection` passes with the injection planned, or
// why not (no driver, a driver the image refuses, an injection that cannot be planned).
struct GpuAdmission {
    std::vector<Finding> findings;
    GpuInjection plan;
    std::string unavailable; // empty: admitted
};
GpuAdmission admit_gpus(const ContainerContext& context, const HostFacts& host, const GpuHost& gpu_host);

// The reason a kit run could not be given the GPUs (run_kit's Error(environment)).
std::string injection_refused(const Error& e);

// Runs `tier`'s kit in the unpacked image with the host's GPUs injected as `gpu_host`
// plans (the real host: this_host()) and evaluates its output against the embedded
// matrix and `thresholds`. The report starts with `require-cuda` (when the image sets
// NVIDIA_REQUIRE_CUDA) and `gpu-injection` passes, then the kit's findings and figures
// (see evaluate_kit_output), or one failed `kit-run` finding when the kit gave none.
GpuTierResult run_gpu_tier(std::string_view tier, const ContainerContext& context, const HostFacts& host,
    const lock::Thresholds& thresholds, const GpuHost& gpu_host);

} // namespace dlenv::verify
