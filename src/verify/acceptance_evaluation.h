#pragma once

#include "resolve/acceptance.h"
#include "verify/kit_run.h"
#include "verify/report.h"

#include <string>

namespace dlenv::verify {

// What the acceptance tier's training job is held to, and where its data came from.
struct AcceptanceTargets {
    resolve::Acceptance settings; // as acceptance_settings (acceptance_tier.h) gives them
    std::string data_dir; // as the host names it, for advice: "/srv/imagenet", or "a synthetic set"
};

// Adds the acceptance kit's findings and figures to `tier`, then holds them to `targets`:
// `data-wait` (the step's wait for data against data_wait_max_fraction; on failure, the
// workers' read speed and decode time, the CPU cores per GPU and num_workers, the slower
// of reading and decoding first) and, for each GPU the kit sampled, `gpu-utilization`
// (busy time against gpu_utilization_min; on failure, whether the data loading or the job
// itself leaves the GPU idle). A kit that saw no GPU where `gpus_injected` is true fails
// `gpu-utilization` (the image's framework cannot use the GPUs).
void evaluate_acceptance(
    const KitOutput& output, const AcceptanceTargets& targets, bool gpus_injected, TierReport& tier);

} // namespace dlenv::verify
