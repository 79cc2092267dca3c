#include "advise/advice.h"

namespace dlenv::advise {
namespace {

nlohmann::json citation_json(const Citation& c)
{
    nlohmann::json j { { "title", std::string(c.title) } };
    if (!c.url.empty())
        j["url"] = std::string(c.url);
    return j;
}

nlohmann::json job_json(const Job& job)
{
    nlohmann::json model { { "name", job.model.name }, { "parameters", job.model.parameters } };
    if (const auto& t = job.model.transformer)
        model["shape"]
            = { { "layers", t->layers }, { "hidden", t->hidden }, { "heads", t->heads }, { "kv_heads", t->kv_heads } };
    if (job.model.shape_source)
        model["shape_source"] = citation_json(*job.model.shape_source);
    if (job.model.parameters_source)
        model["parameters_source"] = citation_json(*job.model.parameters_source);
    nlohmann::json j { { "model", model }, { "task", std::string(to_string(job.task)) },
        { "precision", std::string(to_string(job.precision)) }, { "seq_len", job.seq_len }, { "batch", job.batch } };
    if (job.task != Task::inference)
        j["optimizer"] = std::string(to_string(job.optimizer));
    if (is_adapter(job.task))
        j["lora_rank"] = job.lora_rank;
    return j;
}

nlohmann::json memory_json(const MemoryEstimate& memory)
{
    nlohmann::json terms = nlohmann::json::array();
    for (const auto& t : memory.terms)
        terms.push_back({ { "name", t.name }, { "part", std::string(to_string(t.part)) }, { "bytes", t.bytes },
            { "formula", t.formula }, { "source", citation_json(t.source) } });
    nlohmann::json j { { "terms", terms }, { "not_counted", memory.not_counted },
        { "total_bytes", memory.total(false) }, { "total_checkpointed_bytes", memory.total(true) } };
    if (const auto& a = memory.activations) {
        j["activations"] = { { "bytes", a->bytes }, { "formula", a->formula }, { "source", citation_json(a->source) } };
        if (a->checkpointed) {
            j["activations"]["checkpointed_bytes"] = *a->checkpointed;
            j["activations"]["checkpointed_formula"] = a->checkpointed_formula;
        }
    }
    return j;
}

nlohmann::json host_json(const HostNeeds& h)
{
    nlohmann::json j { { "gpus_per_node", h.gpus_per_node }, { "nodes", h.nodes }, { "cpu_cores", h.cpu_cores },
        { "ram_gb", h.ram_gb }, { "nvme_read_mb_s", h.nvme_mb_s }, { "rdma", h.rdma },
        { "source", citation_json(cite::baseline) } };
    if (h.network_gbit_s)
        j["network_gbit_s"] = *h.network_gbit_s;
    return j;
}

nlohmann::json fit_json(const GpuFit& fit)
{
    nlohmann::json j { { "name", fit.gpu->name }, { "fits", fit.fits() } };
    j["memory_gb"] = fit.gpu->memory_gb ? nlohmann::json(*fit.gpu->memory_gb) : nlohmann::json(nullptr);
    if (fit.available)
        j["available"] = *fit.available;
    if (fit.plan)
        j["plan"] = { { "gpus", fit.plan->gpus }, { "nodes", fit.plan->nodes() },
            { "sharding", std::string(to_string(fit.plan->sharding)) }, { "checkpointing", fit.plan->checkpointing },
            { "per_gpu_bytes", fit.plan->per_gpu_bytes } };
    if (fit.on_available)
        j["per_gpu_bytes_on_available"] = *fit.on_available;
    if (fit.host)
        j["host"] = host_json(*fit.host);
    if (!fit.links.empty())
        j["links"] = fit.links;
    return j;
}

} // namespace

nlohmann::json to_json(const Advice& advice)
{
    nlohmann::json gpus = nlohmann::json::array();
    for (const auto& fit : advice.fits)
        gpus.push_back(fit_json(fit));
    nlohmann::json rules = nlohmann::json::array();
    for (const auto& r : advice.rules)
        rules.push_back({ { "claim", r.claim }, { "arithmetic", r.arithmetic }, { "holds_when", r.holds_when } });
    return { { "format", "dlenv.advise/v1" }, { "job", job_json(advice.job) }, { "memory", memory_json(advice.memory) },
        { "gpus_named", advice.gpus_named }, { "gpus", gpus }, { "rules_of_thumb", rules },
        { "fits", advice.fits_somewhere() } };
}

} // namespace dlenv::advise
