#include "advise/job.h"

#include "advise/models.h"
#include "core/closest.h"
#include "core/error.h"
#include "core/text.h"

#include <array>
#include <charconv>
#include <cmath>
#include <utility>

namespace dlenv::advise {
namespace {

template <typename Enum, std::size_t N>
Enum parse_choice(
    const std::array<std::pair<std::string_view, Enum>, N>& choices, const std::string& text, std::string_view flag)
{
    std::vector<std::string> names;
    for (const auto& [name, value] : choices) {
        if (name == text)
            return value;
        names.emplace_back(name);
    }
    throw Error(ErrorCode::invalid_input, std::string(flag) + " " + text + ": unknown value",
        "use one of " + join_alternatives(names));
}

constexpr std::array<std::pair<std::string_view, Task>, 5> k_tasks { { { "full-finetune", Task::full_finetune },
    { "lora", Task::lora }, { "qlora", Task::qlora }, { "inference", Task::inference }, { "train", Task::train } } };
constexpr std::array<std::pair<std::string_view, Precision>, 4> k_precisions { { { "fp32", Precision::fp32 },
    { "fp16", Precision::fp16 }, { "bf16", Precision::bf16 }, { "fp8", Precision::fp8 } } };
constexpr std::array<std::pair<std::string_view, Optimizer>, 3> k_optimizers { { { "adamw", Optimizer::adamw },
    { "sgd", Optimizer::sgd }, { "adam8bit", Optimizer::adam8bit } } };

template <typename Enum, std::size_t N>
std::string_view name_of(const std::array<std::pair<std::string_view, Enum>, N>& choices, Enum value)
{
    for (const auto& [name, v] : choices)
        if (v == value)
            return name;
    return "";
}

Model base_model(const JobRequest& request)
{
    Model model;
    if (!request.model.empty()) {
        const Model* known = find_model(request.model);
        if (!known) {
            std::vector<std::string> keys;
            for (const auto& k : known_models())
                keys.emplace_back(k.key);
            throw Error(ErrorCode::invalid_input, "--model " + request.model + ": unknown model",
                "known: " + join_alternatives(keys, " and ") + "; for another model give --model-params and its shape");
        }
        model = *known;
    }
    if (!request.model_params.empty()) {
        auto count = parse_parameter_count(request.model_params);
        if (!count)
            throw Error(ErrorCode::invalid_input, "--model-params " + request.model_params + ": not a parameter count",
                "write a number with B, M or T: --model-params 7B, --model-params 350M, --model-params 25557032");
        model.parameters = *count;
        model.parameters_source.reset();
        if (request.model.empty())
            if (const Model* llama = llama2_of_size(*count)) {
                model = *llama; // for its shape; the count is the user's
                model.name = "shape of " + llama->name;
                model.parameters_source.reset();
            }
    }
    if (model.parameters <= 0)
        throw Error(ErrorCode::invalid_input, "the model's size is missing",
            "give --model-params (--model-params 7B) or a known --model (--model llama-2-7b)");
    return model;
}

// --layers, --hidden and --heads come together; --kv-heads defaults to --heads.
void apply_shape(const JobRequest& request, Model& model)
{
    bool any = request.layers || request.hidden || request.heads || request.kv_heads;
    if (!any)
        return;
    for (auto [given, flag] : { std::pair { request.layers, "--layers" }, std::pair { request.hidden, "--hidden" },
             std::pair { request.heads, "--heads" } })
        if (!given || *given == 0)
            throw Error(ErrorCode::invalid_input, std::string(flag) + " is missing or 0",
                "a transformer's shape is --layers, --hidden and --heads together (--layers 32 --hidden 4096 "
                "--heads 32), with --kv-heads for grouped-query attention");
    TransformerShape shape { *request.layers, *request.hidden, *request.heads,
        request.kv_heads.value_or(*request.heads) };
    if (shape.hidden % shape.heads != 0)
        throw Error(ErrorCode::invalid_input,
            "--hidden " + std::to_string(shape.hidden) + " is not a multiple of --heads " + std::to_string(shape.heads),
            "each head has hidden / heads dimensions: give the config.json's hidden_size and num_attention_heads");
    if (shape.kv_heads == 0 || shape.heads % shape.kv_heads != 0)
        throw Error(ErrorCode::invalid_input,
            "--kv-heads " + std::to_string(shape.kv_heads) + " does not divide --heads " + std::to_string(shape.heads),
            "give the config.json's num_key_value_heads");
    model.transformer = shape;
    model.activations_per_sample.reset();
    model.shape_source.reset();
    if (request.model.empty())
        model.name.clear();
}

unsigned positive(std::optional<unsigned> value, unsigned fallback, std::string_view flag)
{
    if (value && *value == 0)
        throw Error(ErrorCode::invalid_input, std::string(flag) + " 0: must be at least 1",
            std::string("give a positive count: ") + std::string(flag) + " 1");
    return value.value_or(fallback);
}

} // namespace

std::string_view to_string(Task task)
{
    return name_of(k_tasks, task);
}
std::string_view to_string(Precision precision)
{
    return name_of(k_precisions, precision);
}
std::string_view to_string(Optimizer optimizer)
{
    return name_of(k_optimizers, optimizer);
}

bool is_training(Task task)
{
    return task == Task::full_finetune || task == Task::train;
}
bool is_adapter(Task task)
{
    return task == Task::lora || task == Task::qlora;
}

std::optional<double> parse_parameter_count(std::string_view text)
{
    if (text.empty())
        return std::nullopt;
    double scale = 1;
    switch (ascii_upper(text.back())) {
    case 'K':
        scale = 1e3;
        break;
    case 'M':
        scale = 1e6;
        break;
    case 'B':
        scale = 1e9;
        break;
    case 'T':
        scale = 1e12;
        break;
    default:
        break;
    }
    std::string_view number = scale == 1 ? text : text.substr(0, text.size() - 1);
    double value = 0;
    auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (ec != std::errc() || end != number.data() + number.size() || !std::isfinite(value) || value <= 0)
        return std::nullopt;
    return std::round(value * scale);
}

Job parse_job(const JobRequest& request)
{
    Job job;
    if (request.task.empty())
        throw Error(ErrorCode::invalid_input, "--task is missing",
            "say what the job does: --task full-finetune, lora, qlora, inference or train");
    job.task = parse_choice(k_tasks, request.task, "--task");
    job.model = base_model(request);
    apply_shape(request, job.model);
    if (!request.precision.empty())
        job.precision = parse_choice(k_precisions, request.precision, "--precision");
    if (!request.optimizer.empty())
        job.optimizer = parse_choice(k_optimizers, request.optimizer, "--optimizer");
    if (job.precision == Precision::fp8 && job.task != Task::inference)
        throw Error(ErrorCode::invalid_input, "--precision fp8 is sized for --task inference only",
            "FP8 training keeps 16- or 32-bit weights and computes each matrix product in FP8, so its memory is "
            "bf16's: use --precision bf16");
    job.seq_len = positive(request.seq_len, job.seq_len, "--seq-len");
    job.batch = positive(request.batch, job.batch, "--batch");
    job.lora_rank = positive(request.lora_rank, job.lora_rank, "--lora-rank");
    return job;
}

} // namespace dlenv::advise
