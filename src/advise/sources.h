#pragma once

#include <string_view>

namespace dlenv::advise {

// Where a formula or a figure comes from: a paper's section, a model's published
// configuration, a library's documentation.
struct Citation {
    std::string_view title;
    std::string_view url;
};

namespace cite {

// Mixed-precision Adam keeps fp16 weights and gradients (2 + 2 bytes) and an fp32 copy,
// momentum and variance (K = 12 bytes) per parameter: 16 bytes (§3.1). Stage 1 shards the
// optimizer states, stage 2 also the gradients, stage 3 also the weights (§5, Figure 1).
constexpr Citation zero { "Rajbhandari et al. 2020, ZeRO: Memory Optimizations Toward Training Trillion Parameter "
                          "Models, §3.1 and §5",
    "https://arxiv.org/abs/1910.02054" };
// A transformer layer stores sbh(34 + 5as/h) bytes of 16-bit activations without
// parallelism (§4.1, eq. 1); full recomputation keeps only each layer's input, 2sbh.
constexpr Citation korthikanti { "Korthikanti et al. 2022, Reducing Activation Recomputation in Large Transformer "
                                 "Models, §4.1 eq. 1 and §5",
    "https://arxiv.org/abs/2205.05198" };
// NF4 stores 4 bits per weight; double quantization brings the block constants from
// 32/64 = 0.5 to 8/64 + 32/(64 * 256) = 0.127 bits per parameter (§3).
constexpr Citation qlora { "Dettmers et al. 2023, QLoRA: Efficient Finetuning of Quantized LLMs, §3",
    "https://arxiv.org/abs/2305.14314" };
// 8-bit Adam keeps both of Adam's states in 8 bits: 2 bytes per parameter.
constexpr Citation adam8bit { "Dettmers et al. 2021, 8-bit Optimizers via Block-wise Quantization",
    "https://arxiv.org/abs/2110.02861" };
// An adapter of rank r on a d x k matrix has r(d + k) parameters; the paper adapts the
// attention's query and value projections (§4, §7.1).
constexpr Citation lora { "Hu et al. 2021, LoRA: Low-Rank Adaptation of Large Language Models, §4 and §7.1",
    "https://arxiv.org/abs/2106.09685" };
// SGD with momentum keeps one momentum buffer per parameter.
constexpr Citation sgd { "PyTorch documentation, torch.optim.SGD (momentum_buffer)",
    "https://pytorch.org/docs/stable/generated/torch.optim.SGD.html" };
// Each attention layer caches K and V of (batch, seq, kv_heads, head_dim) per token.
constexpr Citation kv_cache { "meta-llama/llama model.py, Attention: cache_k and cache_v of (max_batch_size, "
                              "max_seq_len, n_kv_heads, head_dim) per layer",
    "https://github.com/meta-llama/llama/blob/main/llama/model.py" };
constexpr Citation llama2_7b { "meta-llama/Llama-2-7b-hf config.json (hidden_size 4096, num_hidden_layers 32, "
                               "num_attention_heads 32, num_key_value_heads 32)",
    "https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json" };
constexpr Citation llama2_13b { "meta-llama/Llama-2-13b-hf config.json (hidden_size 5120, num_hidden_layers 40, "
                                "num_attention_heads 40, num_key_value_heads 40)",
    "https://huggingface.co/meta-llama/Llama-2-13b-hf/blob/main/config.json" };
constexpr Citation llama2_70b { "meta-llama/Llama-2-70b-hf config.json (hidden_size 8192, num_hidden_layers 80, "
                                "num_attention_heads 64, num_key_value_heads 8)",
    "https://huggingface.co/meta-llama/Llama-2-70b-hf/blob/main/config.json" };
constexpr Citation resnet50_params { "torchvision documentation, resnet50 (num_params 25557032)",
    "https://pytorch.org/vision/stable/models/generated/torchvision.models.resnet50.html" };
// timm counts 11.1 M activations (the convolutions' outputs) per 224 x 224 image.
constexpr Citation resnet50_activations { "timm model card resnet50.a1_in1k (Activations (M): 11.1 at 224 x 224)",
    "https://huggingface.co/timm/resnet50.a1_in1k" };
constexpr Citation baseline { "dlenv's baseline for a training box (the doctor's threshold)", "" };

} // namespace cite
} // namespace dlenv::advise
