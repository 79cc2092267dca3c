#include "advise/advice.h"

#include "advise/rules_of_thumb.h"
#include "advise/units.h"
#include "core/error.h"
#include "host/baselines.h"
#include "resolve/targets.h"

#include <algorithm>
#include <cctype>

namespace dlenv::advise {
namespace {

struct GpuRequest {
    std::optional<unsigned> count;
    std::string name;
};

// "4x RTX 4090" -> 4 of "RTX 4090"; "RTX 4090" -> one.
GpuRequest parse_gpu_request(const std::string& text)
{
    std::size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])))
        ++digits;
    if (digits == 0 || digits + 1 >= text.size() || (text[digits] != 'x' && text[digits] != 'X')
        || text[digits + 1] != ' ')
        return { 1u, text };
    unsigned count = digits > 4 ? 0 : unsigned(std::stoul(text.substr(0, digits)));
    if (count == 0)
        throw Error(ErrorCode::invalid_input, "--gpus " + text + ": a count of 0, or past 9999",
            "write how many you have before the model: --gpus \"4x RTX 4090\"");
    return { count, text.substr(digits + 2) };
}

std::vector<const matrix::Gpu*> named_models(const matrix::Matrix& matrix, const std::string& name)
{
    resolve::GpuTarget target = resolve::resolve_gpu(matrix, name);
    if (target.model)
        return { target.model };
    if (!target.variants.empty())
        return target.variants;
    throw Error(ErrorCode::invalid_input, "--gpus " + name + ": a compute capability, not a model",
        "advice needs the GPU's memory: name a model (--gpus \"RTX 4090\", --gpus \"H100 SXM5\")");
}

std::string links_text(const matrix::Gpu& gpu, const Plan& plan)
{
    if (plan.gpus == 1)
        return "";
    std::string text = std::to_string(plan.gpus) + " GPUs exchange " + std::string(to_string(plan.sharding))
        + " traffic every step, so NVLink matters: the matrix does not record whether " + gpu.name
        + " has it; `nvidia-smi topo -m` (read by `dlenv doctor`) shows the links";
    if (plan.nodes() > 1)
        text += "; across " + std::to_string(plan.nodes()) + " nodes the traffic crosses the network: >= "
            + factor_text(host::k_network_gbit_s) + " Gb/s and RDMA (InfiniBand or RoCE)";
    return text;
}

GpuFit fit_on(const Job& job, const MemoryEstimate& memory, const matrix::Gpu& gpu, std::optional<unsigned> available)
{
    GpuFit fit { &gpu, available, std::nullopt, std::nullopt, std::nullopt, "" };
    if (!gpu.memory_gb)
        return fit;
    fit.plan = cheapest_plan(job, memory, *gpu.memory_gb * k_gb);
    if (available && !fit.fits())
        fit.on_available = least_per_gpu_bytes(job, memory, *available);
    if (fit.plan) {
        // The host holds every GPU there, used or not.
        unsigned host_gpus = fit.fits() ? available.value_or(fit.plan->gpus) : fit.plan->gpus;
        fit.host = host_needs(host_gpus, *gpu.memory_gb);
        fit.links = links_text(gpu, *fit.plan);
    }
    return fit;
}

// Fewest GPUs first, then the least memory per card (the smallest card that does it),
// then by name; those that do not fit last.
bool better(const GpuFit& a, const GpuFit& b)
{
    if (a.plan.has_value() != b.plan.has_value())
        return a.plan.has_value();
    if (a.plan && a.plan->gpus != b.plan->gpus)
        return a.plan->gpus < b.plan->gpus;
    if (a.gpu->memory_gb != b.gpu->memory_gb)
        return a.gpu->memory_gb.value_or(0) < b.gpu->memory_gb.value_or(0);
    return a.gpu->name < b.gpu->name;
}

} // namespace

HostNeeds host_needs(unsigned gpus, double gpu_memory_gb)
{
    HostNeeds needs;
    needs.gpus_per_node = std::min(gpus, k_gpus_per_node);
    needs.nodes = (gpus + k_gpus_per_node - 1) / k_gpus_per_node;
    needs.cpu_cores = host::k_cores_per_gpu * needs.gpus_per_node;
    needs.ram_gb = host::k_ram_per_gpu_memory * gpu_memory_gb * needs.gpus_per_node;
    needs.nvme_mb_s = host::k_nvme_mb_s;
    if (needs.nodes > 1) {
        needs.network_gbit_s = host::k_network_gbit_s;
        needs.rdma = true;
    }
    return needs;
}

bool Advice::fits_somewhere() const
{
    return std::any_of(fits.begin(), fits.end(), [](const GpuFit& fit) { return fit.fits(); });
}

Advice advise(const matrix::Matrix& matrix, const Job& job, const std::vector<std::string>& gpu_names)
{
    Advice advice { job, estimate_memory(job), !gpu_names.empty(), {}, {} };
    for (const auto& text : gpu_names) {
        GpuRequest request = parse_gpu_request(text);
        for (const matrix::Gpu* gpu : named_models(matrix, request.name))
            advice.fits.push_back(fit_on(job, advice.memory, *gpu, request.count));
    }
    if (gpu_names.empty()) {
        for (const auto& gpu : matrix.gpus())
            if (gpu.memory_gb)
                advice.fits.push_back(fit_on(job, advice.memory, gpu, std::nullopt));
        std::sort(advice.fits.begin(), advice.fits.end(), better);
    }
    advice.rules = rules_of_thumb(job, advice.memory);
    return advice;
}

} // namespace dlenv::advise
