#pragma once

#include "advise/job.h"
#include "advise/sources.h"

#include <optional>
#include <string>
#include <vector>

namespace dlenv::advise {

// Bits per parameter of QLoRA's frozen weights: NF4's 4, plus the block constants after
// double quantization, 8/64 + 32/(64 * 256) = 0.127.
constexpr double k_qlora_weight_bits = 4 + 8.0 / 64 + 32.0 / (64 * 256);

// What a term of memory is, as sharding treats it: ZeRO shards optimizer states,
// gradients and weights (stages 1, 2, 3); tensor parallelism splits weights and the KV
// cache; activations stay with each GPU's own batch.
enum class MemoryPart { weights, gradients, optimizer_states, kv_cache };
std::string_view to_string(MemoryPart part);

struct MemoryTerm {
    std::string name; // "weights", "LoRA adapter weights", "KV cache"
    MemoryPart part;
    double bytes = 0;
    std::string formula; // the arithmetic, with the figures put in
    Citation source;
};

// Activation memory of one training step, stored for the backward pass.
struct Activations {
    double bytes = 0; // everything kept
    std::optional<double> checkpointed; // with activation checkpointing; none: no sourced formula
    std::string formula;
    std::string checkpointed_formula;
    Citation source;
};

// The memory a job needs, term by term, each with its formula and source.
struct MemoryEstimate {
    std::vector<MemoryTerm> terms;
    std::optional<Activations> activations; // none for inference, or when unknown
    std::vector<std::string> not_counted; // what the estimate leaves out, and why

    double bytes(MemoryPart part) const;
    // Every term plus the activations, kept or checkpointed (the kept figure where
    // checkpointing has no formula).
    double total(bool checkpointing) const;
};

// The estimate for `job`. The formulas: weights, gradients and optimizer states per
// parameter from the ZeRO paper (mixed precision: 2 + 2 + 12 bytes for Adam), 8-bit Adam's
// states from Dettmers et al. 2021, NF4 with double quantization from QLoRA, adapters
// from LoRA (rank r on the query and value projections), activations from Korthikanti et
// al. 2022 (scaled x2 for fp32 activations), the KV cache as Llama's model.py allocates it.
MemoryEstimate estimate_memory(const Job& job);

} // namespace dlenv::advise
