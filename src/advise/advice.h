#pragma once

#include "advise/job.h"
#include "advise/memory.h"
#include "advise/plan.h"
#include "matrix/matrix.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace dlenv::advise {

// The host that goes with a plan, per node, from dlenv's baselines (host/baselines.h):
// 8 CPU cores per GPU, RAM twice the GPUs' memory, NVMe reading 2 GB/s; between nodes
// 10 Gb/s and RDMA.
struct HostNeeds {
    unsigned gpus_per_node = 1;
    unsigned nodes = 1;
    unsigned cpu_cores = 0;
    double ram_gb = 0;
    double nvme_mb_s = 0;
    std::optional<double> network_gbit_s; // multi-node only
    bool rdma = false; // multi-node only
};
HostNeeds host_needs(unsigned gpus, double gpu_memory_gb);

// A job on one GPU model of the matrix.
struct GpuFit {
    const matrix::Gpu* gpu = nullptr;
    std::optional<unsigned> available; // how many the user has; none: as many as it takes
    std::optional<Plan> plan; // none: no count up to k_max_gpus fits, or the memory is unknown
    std::optional<double> on_available; // when it does not fit: the least per-GPU memory on the GPUs there
    std::optional<HostNeeds> host; // for the GPUs there when it fits on them, else for the plan's
    std::string links; // what the plan's GPU traffic asks of the links; empty for one GPU
    bool fits() const { return plan && (!available || plan->gpus <= *available); }
};

// A common rule of thumb about the task, what the arithmetic says for this job, and
// what assumption makes the rule true.
struct RuleOfThumb {
    std::string claim;
    std::string arithmetic;
    std::string holds_when;
};

struct Advice {
    Job job;
    MemoryEstimate memory;
    bool gpus_named = false; // --gpus given: the fits are those; else every GPU the matrix sizes
    std::vector<GpuFit> fits;
    std::vector<RuleOfThumb> rules;
    // The job fits on one of the named GPUs (in the number given), or, with none named,
    // on some GPU of the matrix.
    bool fits_somewhere() const;
};

// Sizes `job` on the GPUs `gpu_names` names ("RTX 4090", "4x A100 80GB SXM4", a family
// such as "A100" for each of its variants), looked up as `dlenv check --gpu` does; with
// none, on every GPU of the matrix with a memory figure, fewest GPUs first. An unknown
// name, or a bare compute capability, throws Error(invalid_input).
Advice advise(const matrix::Matrix& matrix, const Job& job, const std::vector<std::string>& gpu_names);

// {"format": "dlenv.advise/v1", "job", "memory", "gpus", "rules_of_thumb", "fits"}.
nlohmann::json to_json(const Advice& advice);

} // namespace dlenv::advise
