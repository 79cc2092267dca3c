#include "advise/rules_of_thumb.h"

#include "advise/advice.h"
#include "advise/units.h"

namespace dlenv::advise {
namespace {

std::string activations_text(const MemoryEstimate& memory)
{
    if (!memory.activations)
        return "";
    const Activations& a = *memory.activations;
    std::string text = " + activations " + gb_text(a.bytes) + " GB";
    if (a.checkpointed)
        text += " (" + gb_text(*a.checkpointed) + " GB checkpointed)";
    return text;
}

RuleOfThumb full_finetune(const Job& job, const MemoryEstimate& memory)
{
    double states = memory.bytes(MemoryPart::weights) + memory.bytes(MemoryPart::gradients)
        + memory.bytes(MemoryPart::optimizer_states);
    return { "full fine-tuning takes about 6 bytes per parameter (\"a 7B model in 40 GB\")",
        "this job: " + factor_text(states / job.model.parameters) + " bytes per parameter of weights, gradients and "
            + "optimizer states = " + gb_text(states) + " GB" + activations_text(memory),
        "16-bit weights and gradients kept without an fp32 copy, 8-bit Adam states (2 + 2 + 2 = 6 bytes per "
        "parameter) and activation checkpointing; or ZeRO stage 3 over 3 GPUs (16 / 3 = 5.3 bytes per parameter "
        "each); or LoRA instead of full fine-tuning" };
}

RuleOfThumb inference(const Job& job, const MemoryEstimate& memory)
{
    double weights = memory.bytes(MemoryPart::weights);
    double kv = memory.bytes(MemoryPart::kv_cache);
    return { "inference takes 2 GB per billion parameters",
        "this job: weights " + gb_text(weights) + " GB (" + factor_text(weights / job.model.parameters)
            + " bytes per parameter) + KV cache " + gb_text(kv) + " GB at --seq-len " + std::to_string(job.seq_len)
            + " --batch " + std::to_string(job.batch),
        "fp16 or bf16 weights and a short context with a small batch: the KV cache grows with sequence length x "
        "batch, and fp8 weights take 1 GB per billion" };
}

RuleOfThumb lora(const MemoryEstimate& memory)
{
    double weights = memory.bytes(MemoryPart::weights);
    double rest = memory.bytes(MemoryPart::gradients) + memory.bytes(MemoryPart::optimizer_states);
    return { "LoRA needs little more than the memory of the frozen weights",
        "this job: weights and adapters " + gb_text(weights) + " GB + adapter gradients and optimizer states "
            + gb_text(rest) + " GB" + activations_text(memory),
        "activation checkpointing and a short sequence: the adapters and their states are then a fraction of a "
        "percent of the weights, and the stored activations are small beside them" };
}

RuleOfThumb qlora(const Job& job, const MemoryEstimate& memory)
{
    return { "QLoRA fine-tunes a 65B model on one 48 GB GPU (Dettmers et al. 2023)",
        "NF4 with double quantization is " + factor_text(k_qlora_weight_bits) + " bits per parameter: 65B -> "
            + gb_text(65e9 * k_qlora_weight_bits / 8) + " GB of weights; this job (" + count_text(job.model.parameters)
            + "): " + gb_text(memory.total(true)) + " GB in all with checkpointing",
        "NF4 weights with double quantization, activation checkpointing, a small batch, and paged optimizers that "
        "move optimizer-state spikes to CPU memory" };
}

} // namespace

std::vector<RuleOfThumb> rules_of_thumb(const Job& job, const MemoryEstimate& memory)
{
    switch (job.task) {
    case Task::full_finetune:
    case Task::train:
        return { full_finetune(job, memory) };
    case Task::inference:
        return { inference(job, memory) };
    case Task::lora:
        return { lora(memory) };
    case Task::qlora:
        return { qlora(job, memory) };
    }
    return {};
}

} // namespace dlenv::advise
