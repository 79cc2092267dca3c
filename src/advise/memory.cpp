#include "advise/memory.h"

#include "advise/units.h"

namespace dlenv::advise {
namespace {

bool mixed(Precision precision)
{
    return precision != Precision::fp32;
}

// Bytes of a 16- or 32-bit value: weights, gradients and activations of a training job.
double value_bytes(Precision precision)
{
    return precision == Precision::fp32 ? 4 : 2;
}

double weight_bytes(Precision precision)
{
    return precision == Precision::fp8 ? 1 : value_bytes(precision);
}

struct OptimizerBytes {
    double bytes;
    std::string parts;
    Citation source;
};

// Mixed precision adds an fp32 copy of the weights the optimizer updates (ZeRO §3.1).
OptimizerBytes optimizer_bytes(Optimizer optimizer, Precision precision)
{
    double master = mixed(precision) ? 4 : 0;
    std::string copy = mixed(precision) ? "fp32 weight copy 4 + " : "";
    switch (optimizer) {
    case Optimizer::adamw:
        return { master + 8, copy + "momentum 4 + variance 4", cite::zero };
    case Optimizer::sgd:
        return { master + 4, copy + "momentum 4", cite::sgd };
    case Optimizer::adam8bit:
        return { master + 2, copy + "8-bit momentum 1 + 8-bit variance 1", cite::adam8bit };
    }
    return {};
}

std::string per_parameter(double parameters, double bytes, const std::string& what)
{
    return count_text(parameters) + " parameters x " + factor_text(bytes) + (bytes == 1 ? " byte (" : " bytes (") + what
        + ")";
}

// The trained parameters' terms: gradients and optimizer states, of every weight or of
// the adapters alone.
void add_trained_terms(const Job& job, double trained, const std::string& label, MemoryEstimate& estimate)
{
    double grad = value_bytes(job.precision);
    estimate.terms.push_back({ label + "gradients", MemoryPart::gradients, trained * grad,
        per_parameter(trained, grad, std::string(to_string(job.precision))), cite::zero });
    OptimizerBytes opt = optimizer_bytes(job.optimizer, job.precision);
    estimate.terms.push_back({ label + "optimizer states (" + std::string(to_string(job.optimizer)) + ")",
        MemoryPart::optimizer_states, trained * opt.bytes, per_parameter(trained, opt.bytes, opt.parts), opt.source });
}

// LoRA's adapters on W_q (h x h) and W_v (h x kv_heads * head_dim): r(d + k) each.
double adapter_parameters(const TransformerShape& shape, unsigned rank)
{
    double kv_dim = double(shape.kv_heads) * shape.head_dim();
    return double(shape.layers) * rank * ((2.0 * shape.hidden) + (shape.hidden + kv_dim));
}

void add_weights(const Job& job, MemoryEstimate& estimate)
{
    double p = job.model.parameters;
    std::string name = is_adapter(job.task) ? "weights (frozen)" : "weights";
    if (job.task == Task::qlora) {
        estimate.terms.push_back({ name, MemoryPart::weights, p * k_qlora_weight_bits / 8,
            count_text(p) + " parameters x " + factor_text(k_qlora_weight_bits)
                + " bits (NF4 4 + double-quantized block constants 0.127)",
            cite::qlora });
        return;
    }
    double bytes = weight_bytes(job.precision);
    estimate.terms.push_back({ name, MemoryPart::weights, p * bytes,
        per_parameter(p, bytes, std::string(to_string(job.precision))), cite::zero });
}

void add_adapters(const Job& job, MemoryEstimate& estimate)
{
    if (!job.model.transformer) {
        estimate.not_counted.push_back("LoRA adapters: their size follows from the shape (--layers --hidden --heads)");
        return;
    }
    const TransformerShape& shape = *job.model.transformer;
    double adapters = adapter_parameters(shape, job.lora_rank);
    double bytes = value_bytes(job.precision);
    estimate.terms.push_back({ "LoRA adapter weights", MemoryPart::weights, adapters * bytes,
        std::to_string(shape.layers) + " layers x rank " + std::to_string(job.lora_rank) + " x (W_q "
            + std::to_string(shape.hidden) + "+" + std::to_string(shape.hidden) + " + W_v "
            + std::to_string(shape.hidden) + "+" + std::to_string(shape.kv_heads * shape.head_dim())
            + ") = " + count_text(adapters) + " parameters x " + factor_text(bytes) + " bytes",
        cite::lora });
    add_trained_terms(job, adapters, "LoRA adapter ", estimate);
}

std::string shape_text(const Job& job)
{
    return "s=" + std::to_string(job.seq_len) + " b=" + std::to_string(job.batch);
}

void add_transformer_activations(const Job& job, const TransformerShape& t, MemoryEstimate& estimate)
{
    double s = job.seq_len, b = job.batch, h = t.hidden, a = t.heads, layers = t.layers;
    double scale = value_bytes(job.precision) / 2; // the paper counts 16-bit activations
    double per_layer = s * b * h * (34 + 5 * a * s / h) * scale;
    double kept_inputs = 2 * s * b * h * scale;
    std::string dims = shape_text(job) + " h=" + std::to_string(t.hidden) + " a=" + std::to_string(t.heads);
    std::string fp32 = scale == 1 ? "" : " x 2 (fp32)";
    Activations acts;
    acts.bytes = layers * per_layer;
    acts.formula = std::to_string(t.layers) + " layers x sbh(34 + 5as/h), " + dims + fp32;
    acts.checkpointed = layers * kept_inputs + per_layer;
    acts.checkpointed_formula = std::to_string(t.layers) + " layers x 2sbh kept + one layer's sbh(34 + 5as/h) "
        + "recomputed in its backward pass" + fp32;
    acts.source = cite::korthikanti;
    estimate.activations = acts;
}

void add_activations(const Job& job, MemoryEstimate& estimate)
{
    if (const auto& t = job.model.transformer) {
        add_transformer_activations(job, *t, estimate);
        return;
    }
    if (const auto& count = job.model.activations_per_sample) {
        double bytes = value_bytes(job.precision);
        Activations acts;
        acts.bytes = *count * job.batch * bytes;
        acts.formula = count_text(*count) + " activations per sample x batch " + std::to_string(job.batch) + " x "
            + factor_text(bytes) + " bytes; counts each convolution's output once, a lower bound: the "
            + "normalisation and ReLU outputs kept for the backward pass add more";
        acts.source = *job.model.shape_source;
        estimate.activations = acts;
        estimate.not_counted.push_back("activation checkpointing: no sourced formula for this model");
        return;
    }
    estimate.not_counted.push_back(
        "activations: they follow from the shape (--layers --hidden --heads) and --seq-len and --batch");
}

void add_kv_cache(const Job& job, MemoryEstimate& estimate)
{
    const auto& t = job.model.transformer;
    if (!t) {
        if (!job.model.activations_per_sample)
            estimate.not_counted.push_back(
                "KV cache: it follows from the shape (--layers --hidden --heads --kv-heads)");
        return;
    }
    double bytes = value_bytes(job.precision);
    double kv = 2.0 * t->layers * t->kv_heads * t->head_dim() * job.seq_len * job.batch * bytes;
    estimate.terms.push_back({ "KV cache", MemoryPart::kv_cache, kv,
        "2 (K, V) x " + std::to_string(t->layers) + " layers x " + std::to_string(t->kv_heads) + " KV heads x "
            + std::to_string(t->head_dim()) + " head dim x " + shape_text(job) + " x " + factor_text(bytes)
            + (bytes == 4 ? " bytes (fp32 cache)" : " bytes (16-bit cache)"),
        cite::kv_cache });
}

} // namespace

std::string_view to_string(MemoryPart part)
{
    switch (part) {
    case MemoryPart::weights:
        return "weights";
    case MemoryPart::gradients:
        return "gradients";
    case MemoryPart::optimizer_states:
        return "optimizer_states";
    case MemoryPart::kv_cache:
        return "kv_cache";
    }
    return "";
}

double MemoryEstimate::bytes(MemoryPart part) const
{
    double sum = 0;
    for (const auto& term : terms)
        if (term.part == part)
            sum += term.bytes;
    return sum;
}

double MemoryEstimate::total(bool checkpointing) const
{
    double sum = 0;
    for (const auto& term : terms)
        sum += term.bytes;
    if (activations)
        sum += checkpointing && activations->checkpointed ? *activations->checkpointed : activations->bytes;
    return sum;
}

MemoryEstimate estimate_memory(const Job& job)
{
    MemoryEstimate estimate;
    add_weights(job, estimate);
    if (job.task == Task::inference) {
        add_kv_cache(job, estimate);
        estimate.not_counted.push_back("inference activations: transient, one layer at a time");
        return estimate;
    }
    if (is_training(job.task))
        add_trained_terms(job, job.model.parameters, "", estimate);
    else
        add_adapters(job, estimate);
    add_activations(job, estimate);
    return estimate;
}

} // namespace dlenv::advise
