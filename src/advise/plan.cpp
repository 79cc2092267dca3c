#include "advise/plan.h"

#include <algorithm>
#include <vector>

namespace dlenv::advise {
namespace {

std::vector<Sharding> shardings(const Job& job, unsigned gpus)
{
    if (gpus == 1)
        return { Sharding::none };
    if (job.task == Task::inference)
        return { Sharding::tensor_parallel };
    return { Sharding::zero1, Sharding::zero2, Sharding::zero3 };
}

double activation_bytes(const MemoryEstimate& estimate, bool checkpointing)
{
    if (!estimate.activations)
        return 0;
    const Activations& a = *estimate.activations;
    return checkpointing && a.checkpointed ? *a.checkpointed : a.bytes;
}

} // namespace

std::string_view to_string(Sharding sharding)
{
    switch (sharding) {
    case Sharding::none:
        return "none";
    case Sharding::zero1:
        return "zero1";
    case Sharding::zero2:
        return "zero2";
    case Sharding::zero3:
        return "zero3";
    case Sharding::tensor_parallel:
        return "tensor_parallel";
    }
    return "";
}

std::string describe(Sharding sharding)
{
    switch (sharding) {
    case Sharding::none:
        return "no sharding";
    case Sharding::zero1:
        return "ZeRO stage 1 (optimizer states sharded)";
    case Sharding::zero2:
        return "ZeRO stage 2 / FSDP SHARD_GRAD_OP (optimizer states and gradients sharded)";
    case Sharding::zero3:
        return "ZeRO stage 3 / FSDP FULL_SHARD (everything sharded)";
    case Sharding::tensor_parallel:
        return "tensor parallel (weights and KV cache split)";
    }
    return "";
}

double per_gpu_bytes(const MemoryEstimate& estimate, Sharding sharding, unsigned gpus, bool checkpointing)
{
    double n = gpus;
    double w = estimate.bytes(MemoryPart::weights);
    double g = estimate.bytes(MemoryPart::gradients);
    double o = estimate.bytes(MemoryPart::optimizer_states);
    double kv = estimate.bytes(MemoryPart::kv_cache);
    double a = activation_bytes(estimate, checkpointing);
    switch (sharding) {
    case Sharding::none:
        return w + g + o + kv + a;
    case Sharding::zero1:
        return w + g + o / n + kv + a;
    case Sharding::zero2:
        return w + (g + o) / n + kv + a;
    case Sharding::zero3:
        return (w + g + o) / n + kv + a;
    case Sharding::tensor_parallel:
        return (w + kv) / n + g + o + a;
    }
    return 0;
}

double least_per_gpu_bytes(const Job& job, const MemoryEstimate& estimate, unsigned gpus)
{
    double least = per_gpu_bytes(estimate, shardings(job, gpus).front(), gpus, false);
    for (Sharding sharding : shardings(job, gpus))
        for (bool checkpointing : { false, true })
            least = std::min(least, per_gpu_bytes(estimate, sharding, gpus, checkpointing));
    return least;
}

std::optional<Plan> cheapest_plan(
    const Job& job, const MemoryEstimate& estimate, double gpu_memory_bytes, unsigned max_gpus)
{
    bool can_checkpoint = estimate.activations && estimate.activations->checkpointed;
    for (unsigned gpus = 1; gpus <= max_gpus; ++gpus)
        for (bool checkpointing : { false, true }) {
            if (checkpointing && !can_checkpoint)
                continue;
            for (Sharding sharding : shardings(job, gpus)) {
                double need = per_gpu_bytes(estimate, sharding, gpus, checkpointing);
                if (need <= gpu_memory_bytes)
                    return Plan { gpus, sharding, checkpointing, need };
            }
        }
    return std::nullopt;
}

} // namespace dlenv::advise
