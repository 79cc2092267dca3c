#pragma once

#include "fleet/fleet_job.h"

#include <nlohmann/json.hpp>

#include <string>

namespace dlenv::fleet {

// What only Kubernetes is told.
struct KubernetesSettings {
    // The image each pod runs: one that holds dlenv and a container runtime for it.
    ImageReference dlenv_image;
    // The node label GPU Feature Discovery sets, nvidia.com/gpu.product, as it spells it
    // ("NVIDIA-H100-80GB-HBM3"); empty: no node selector.
    std::string gpu_product;
    unsigned retries_per_index = 2; // backoffLimitPerIndex: the retries of a node that could not run
};

// The label every pod of the job carries, which the anti-affinity selects on.
constexpr const char* k_job_label = "dlenv.dev/fleet-job";
// The name of the one container, which the failure policy names.
constexpr const char* k_container = "verify";
// Where a pod keeps the store it pulls into.
constexpr const char* k_pod_store = "/tmp/dlenv-fleet";

// A batch/v1 Job that runs node_script on job.nodes distinct nodes: completionMode
// Indexed with completions = parallelism = nodes, required pod anti-affinity on the job's
// pods by kubernetes.io/hostname, the GPU product node selector, nvidia.com/gpu limits,
// restartPolicy Never, and a podFailurePolicy that fails an index on exit 1 (a failed
// verification) or 2 (bad input), counts exit 3 (could not run) against
// backoffLimitPerIndex so it is retried, and ignores disruptions. Error(invalid_input)
// naming the field for a value check_plain refuses or a GPU product that is no label value.
nlohmann::json indexed_job(const FleetJob& job, const KubernetesSettings& settings);

} // namespace dlenv::fleet
