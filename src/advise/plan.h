#pragma once

#include "advise/job.h"
#include "advise/memory.h"

#include <optional>
#include <string>

namespace dlenv::advise {

// How the job spreads over its GPUs. ZeRO's stages (DeepSpeed; PyTorch FSDP's
// SHARD_GRAD_OP is stage 2, FULL_SHARD stage 3) shard a training job's states;
// tensor parallelism splits an inference job's weights and KV cache.
enum class Sharding { none, zero1, zero2, zero3, tensor_parallel };
std::string_view to_string(Sharding sharding); // "none", "zero1", ..., "tensor_parallel"
std::string describe(Sharding sharding); // "ZeRO stage 3 / FSDP FULL_SHARD"

constexpr unsigned k_gpus_per_node = 8; // an HGX/DGX node's GPUs
constexpr unsigned k_max_gpus = 64; // the largest count advice considers: 8 such nodes

// One way to run the job on GPUs of one model.
struct Plan {
    unsigned gpus = 1;
    Sharding sharding = Sharding::none;
    bool checkpointing = false;
    double per_gpu_bytes = 0;
    unsigned nodes() const { return (gpus + k_gpus_per_node - 1) / k_gpus_per_node; }
};

// Memory on each of `gpus` GPUs (ZeRO §5: stage 1 divides the optimizer states by N,
// stage 2 also the gradients, stage 3 everything but the activations).
double per_gpu_bytes(const MemoryEstimate& estimate, Sharding sharding, unsigned gpus, bool checkpointing);

// The least memory per GPU that any plan on exactly `gpus` GPUs needs: every sharding,
// with activation checkpointing where it has a formula.
double least_per_gpu_bytes(const Job& job, const MemoryEstimate& estimate, unsigned gpus);

// The cheapest plan whose per-GPU memory fits `gpu_memory_bytes`: the fewest GPUs; then
// without activation checkpointing before with it (it costs a recomputed forward pass);
// then the lowest ZeRO stage (stage 3 moves 1.5x the data of stages 1 and 2). None when no
// count up to `max_gpus` fits.
std::optional<Plan> cheapest_plan(
    const Job& job, const MemoryEstimate& estimate, double gpu_memory_bytes, unsigned max_gpus = k_max_gpus);

} // namespace dlenv::advise
