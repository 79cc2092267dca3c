#include "advise/memory.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace dlenv::advise;

namespace {

const MemoryTerm& term(const MemoryEstimate& estimate, const std::string& name)
{
    auto found = std::find_if(
        estimate.terms.begin(), estimate.terms.end(), [&](const MemoryTerm& t) { return t.name == name; });
    REQUIRE(found != estimate.terms.end());
    return *found;
}

std::vector<std::string> names(const MemoryEstimate& estimate)
{
    std::vector<std::string> out;
    for (const auto& t : estimate.terms)
        out.push_back(t.name);
    return out;
}

} // namespace

// Llama-2 7B's shape at s=2048, b=1: one layer keeps sbh(34 + 5as/h) = 2048 * 4096 * (34 +
// 80) = 956,301,312 bytes, 32 layers 30,601,641,984; checkpointed, 32 layers x 2sbh =
// 536,870,912 plus one layer recomputed = 1,493,172,224.
constexpr double k_llama7b_activations = 30601641984.0;
constexpr double k_llama7b_checkpointed = 1493172224.0;

TEST_CASE(
    "7B full fine-tune in bf16 with AdamW: 2 + 2 + 12 = 16 bytes per parameter, 112 GB, plus activations", "[advise]")
{
    auto e = estimate_memory(parse_job({ .model_params = "7B", .task = "full-finetune" }));
    CHECK(names(e) == std::vector<std::string> { "weights", "gradients", "optimizer states (adamw)" });
    CHECK(term(e, "weights").bytes == 14e9);
    CHECK(term(e, "weights").formula == "7B parameters x 2 bytes (bf16)");
    CHECK(term(e, "gradients").bytes == 14e9);
    CHECK(term(e, "optimizer states (adamw)").bytes == 84e9);
    CHECK(term(e, "optimizer states (adamw)").formula
        == "7B parameters x 12 bytes (fp32 weight copy 4 + momentum 4 + variance 4)");
    CHECK(term(e, "optimizer states (adamw)").source.url == "https://arxiv.org/abs/1910.02054");
    REQUIRE(e.activations);
    CHECK(e.activations->bytes == k_llama7b_activations);
    CHECK(e.activations->checkpointed == k_llama7b_checkpointed);
    CHECK(e.activations->formula == "32 layers x sbh(34 + 5as/h), s=2048 b=1 h=4096 a=32");
    CHECK(e.activations->source.url == "https://arxiv.org/abs/2205.05198");
    CHECK(e.total(false) == 112e9 + k_llama7b_activations);
    CHECK(e.total(true) == 112e9 + k_llama7b_checkpointed);
    CHECK(e.not_counted.empty());
}

TEST_CASE("the optimizer sets the states: SGD momentum 4 + copy 4, 8-bit Adam 2 + copy 4, fp32 has no copy", "[advise]")
{
    auto sgd = estimate_memory(parse_job({ .model_params = "7B", .task = "train", .optimizer = "sgd" }));
    CHECK(term(sgd, "optimizer states (sgd)").bytes == 56e9);
    auto adam8 = estimate_memory(parse_job({ .model_params = "7B", .task = "train", .optimizer = "adam8bit" }));
    CHECK(term(adam8, "optimizer states (adam8bit)").bytes == 42e9);
    CHECK(term(adam8, "optimizer states (adam8bit)").source.url == "https://arxiv.org/abs/2110.02861");
    auto fp32 = estimate_memory(parse_job({ .model_params = "7B", .task = "train", .precision = "fp32" }));
    CHECK(term(fp32, "weights").bytes == 28e9);
    CHECK(term(fp32, "gradients").bytes == 28e9);
    CHECK(term(fp32, "optimizer states (adamw)").bytes == 56e9);
    CHECK(fp32.activations->bytes == 2 * k_llama7b_activations);
}

TEST_CASE("7B LoRA: frozen bf16 weights, rank-16 adapters on W_q and W_v, their gradients and AdamW states", "[advise]")
{
    auto e = estimate_memory(parse_job({ .model_params = "7B", .task = "lora" }));
    CHECK(names(e)
        == std::vector<std::string> { "weights (frozen)", "LoRA adapter weights", "LoRA adapter gradients",
            "LoRA adapter optimizer states (adamw)" });
    CHECK(term(e, "weights (frozen)").bytes == 14e9);
    // 32 layers x 16 x (4096 + 4096 + 4096 + 4096) = 8,388,608 adapter parameters.
    CHECK(term(e, "LoRA adapter weights").bytes == 8388608.0 * 2);
    CHECK(term(e, "LoRA adapter weights").formula
        == "32 layers x rank 16 x (W_q 4096+4096 + W_v 4096+4096) = 8.4M parameters x 2 bytes");
    CHECK(term(e, "LoRA adapter gradients").bytes == 8388608.0 * 2);
    CHECK(term(e, "LoRA adapter optimizer states (adamw)").bytes == 8388608.0 * 12);
    CHECK(e.activations->bytes == k_llama7b_activations);
    CHECK(e.total(true) == 15627389952.0);
}

TEST_CASE("7B QLoRA: NF4 weights with double quantization take 4.127 bits per parameter", "[advise]")
{
    auto e = estimate_memory(parse_job({ .model_params = "7B", .task = "qlora" }));
    CHECK(k_qlora_weight_bits == 4.126953125);
    CHECK(term(e, "weights (frozen)").bytes == 7e9 * 4.126953125 / 8);
    CHECK(term(e, "weights (frozen)").formula
        == "7B parameters x 4.12695 bits (NF4 4 + double-quantized block constants 0.127)");
    CHECK(term(e, "weights (frozen)").source.url == "https://arxiv.org/abs/2305.14314");
    CHECK(e.total(true) == 7e9 * 4.126953125 / 8 + 8388608.0 * 16 + k_llama7b_checkpointed);
}

TEST_CASE("70B inference: 140 GB of weights in fp16, 70 GB in fp8, and a GQA KV cache of 8 heads", "[advise]")
{
    auto fp16 = estimate_memory(parse_job({ .model_params = "70B", .task = "inference", .precision = "fp16" }));
    CHECK(names(fp16) == std::vector<std::string> { "weights", "KV cache" });
    CHECK(term(fp16, "weights").bytes == 140e9);
    // 2 x 80 layers x 8 KV heads x 128 x 2048 x 1 x 2 bytes.
    CHECK(term(fp16, "KV cache").bytes == 671088640.0);
    CHECK(term(fp16, "KV cache").formula
        == "2 (K, V) x 80 layers x 8 KV heads x 128 head dim x s=2048 b=1 x 2 bytes (16-bit cache)");
    CHECK_FALSE(fp16.activations);
    CHECK(fp16.total(false) == 140671088640.0);

    auto fp8 = estimate_memory(parse_job({ .model_params = "70B", .task = "inference", .precision = "fp8" }));
    CHECK(term(fp8, "weights").bytes == 70e9);
    CHECK(term(fp8, "KV cache").bytes == 671088640.0);
}

TEST_CASE(
    "ResNet-50 batch 128: 16 bytes per parameter and timm's 11.1M activations per image, a lower bound", "[advise]")
{
    auto e = estimate_memory(parse_job({ .model = "resnet50", .task = "train", .batch = 128u }));
    CHECK(term(e, "weights").bytes == 25557032.0 * 2);
    CHECK(term(e, "optimizer states (adamw)").bytes == 25557032.0 * 12);
    REQUIRE(e.activations);
    CHECK(e.activations->bytes == 11.1e6 * 128 * 2);
    CHECK_FALSE(e.activations->checkpointed);
    CHECK(e.activations->source.url == "https://huggingface.co/timm/resnet50.a1_in1k");
    CHECK(e.total(true) == 25557032.0 * 16 + 11.1e6 * 128 * 2);
    CHECK(e.not_counted == std::vector<std::string> { "activation checkpointing: no sourced formula for this model" });
}

TEST_CASE("without a shape, what follows from it is listed as not counted", "[advise]")
{
    auto e = estimate_memory(parse_job({ .model_params = "6.7B", .task = "lora" }));
    CHECK(names(e) == std::vector<std::string> { "weights (frozen)" });
    CHECK(e.not_counted
        == std::vector<std::string> { "LoRA adapters: their size follows from the shape (--layers --hidden --heads)",
            "activations: they follow from the shape (--layers --hidden --heads) and --seq-len and --batch" });
}
