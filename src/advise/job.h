#pragma once

#include "advise/sources.h"

#include <optional>
#include <string>
#include <vector>

namespace dlenv::advise {

enum class Task { full_finetune, train, lora, qlora, inference };
enum class Precision { fp32, fp16, bf16, fp8 };
enum class Optimizer { adamw, sgd, adam8bit };

std::string_view to_string(Task task); // "full-finetune", as the flag spells it
std::string_view to_string(Precision precision);
std::string_view to_string(Optimizer optimizer);

bool is_training(Task task); // full-finetune and train: every weight gets a gradient
bool is_adapter(Task task); // lora and qlora: frozen weights, trained adapters

// The shape of a decoder transformer, as its config.json gives it.
struct TransformerShape {
    unsigned layers = 0;
    unsigned hidden = 0;
    unsigned heads = 0;
    unsigned kv_heads = 0; // heads, unless grouped-query attention shares K and V
    unsigned head_dim() const { return hidden / heads; }
};

// What is known of the model: its parameter count and, where known, what its activations
// take. `shape_source` says where the shape came from; empty when the user gave it.
struct Model {
    std::string name; // "Llama-2 7B", "ResNet-50", or "" for a bare parameter count
    double parameters = 0;
    std::optional<TransformerShape> transformer;
    std::optional<double> activations_per_sample; // an image model's stored activation count
    std::optional<Citation> shape_source;
    std::optional<Citation> parameters_source;
};

// One job to size: parsed and validated, the defaults filled in.
struct Job {
    Model model;
    Task task = Task::full_finetune;
    Precision precision = Precision::bf16;
    Optimizer optimizer = Optimizer::adamw;
    unsigned seq_len = 2048;
    unsigned batch = 1; // per GPU
    unsigned lora_rank = 16;
};

// The options as the command line spells them; empty means not given.
struct JobRequest {
    std::string model_params = {}; // "7B", "350M", "25557032"
    std::string model = {}; // "llama-2-7b", "resnet50"
    std::string task = {};
    std::string precision = {};
    std::string optimizer = {};
    std::optional<unsigned> seq_len = {};
    std::optional<unsigned> batch = {};
    std::optional<unsigned> lora_rank = {};
    std::optional<unsigned> layers = {};
    std::optional<unsigned> hidden = {};
    std::optional<unsigned> heads = {};
    std::optional<unsigned> kv_heads = {};
};

// Validates a request into a job. A bare --model-params of exactly 7B, 13B or 70B takes
// Llama-2's shape of that size, saying so in `shape_source`. Bad input throws
// Error(invalid_input) naming the flag, with a hint showing a right spelling.
Job parse_job(const JobRequest& request);

// "7B" -> 7e9, "350M" -> 3.5e8, "1.5T", "25557032"; nullopt when it is not a count.
std::optional<double> parse_parameter_count(std::string_view text);

} // namespace dlenv::advise
