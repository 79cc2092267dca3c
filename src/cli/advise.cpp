#include "cli/commands.h"

#include "advise/advice.h"
#include "advise/units.h"
#include "cli/matrix_option.h"
#include "cli/output.h"

#include <iomanip>
#include <iostream>

namespace dlenv::cli {
namespace {

constexpr std::size_t k_rows_shown = 12; // GPUs listed on a terminal when none is named

struct AdviseArgs {
    advise::JobRequest request;
    std::vector<std::string> gpus;
};

// The sources cited, numbered in the order they first appear.
class Footnotes {
public:
    std::string mark(const advise::Citation& c)
    {
        for (std::size_t i = 0; i < m_cited.size(); ++i)
            if (m_cited[i].title == c.title)
                return "[" + std::to_string(i + 1) + "]";
        m_cited.push_back(c);
        return "[" + std::to_string(m_cited.size()) + "]";
    }
    void print(std::ostream& out) const
    {
        out << "sources:\n";
        for (std::size_t i = 0; i < m_cited.size(); ++i)
            out << "  [" << i + 1 << "] " << m_cited[i].title << (m_cited[i].url.empty() ? "" : " ") << m_cited[i].url
                << "\n";
    }

private:
    std::vector<advise::Citation> m_cited;
};

void row(std::ostream& out, const std::string& name, double bytes, const std::string& formula)
{
    out << "  " << std::left << std::setw(44) << name << std::right << std::setw(9) << advise::gb_text(bytes) << "  "
        << formula << "\n";
}

void print_job(const advise::Job& job, Footnotes& notes, std::ostream& out)
{
    out << advise::count_text(job.model.parameters) << " parameters"
        << (job.model.name.empty() ? "" : " (" + job.model.name + ")") << ", --task " << to_string(job.task) << ", "
        << to_string(job.precision);
    if (job.task != advise::Task::inference)
        out << ", " << to_string(job.optimizer);
    out << ", --seq-len " << job.seq_len << " --batch " << job.batch << "\n";
    if (const auto& t = job.model.transformer)
        out << "  shape: " << t->layers << " layers, hidden " << t->hidden << ", " << t->heads << " heads, "
            << t->kv_heads << " KV heads" << (job.model.shape_source ? " " + notes.mark(*job.model.shape_source) : "")
            << "\n";
}

void print_memory(const advise::MemoryEstimate& memory, Footnotes& notes, std::ostream& out)
{
    out << "\nmemory (GB = 10^9 bytes)\n";
    for (const auto& t : memory.terms)
        row(out, t.name, t.bytes, t.formula + " " + notes.mark(t.source));
    if (const auto& a = memory.activations) {
        row(out, "activations", a->bytes, a->formula + " " + notes.mark(a->source));
        if (a->checkpointed)
            row(out, "activations, checkpointed", *a->checkpointed, a->checkpointed_formula);
    }
    out << "  total " << advise::gb_text(memory.total(false)) << " GB";
    if (memory.activations && memory.activations->checkpointed)
        out << ", " << advise::gb_text(memory.total(true)) << " GB with activation checkpointing";
    out << "\n";
    for (const auto& n : memory.not_counted)
        out << "  not counted: " << n << "\n";
}

std::string plan_text(const advise::Plan& plan)
{
    std::string text = std::to_string(plan.gpus) + (plan.gpus == 1 ? " GPU, " : " GPUs, ") + describe(plan.sharding);
    if (plan.nodes() > 1)
        text += ", " + std::to_string(plan.nodes()) + " nodes";
    text += plan.checkpointing ? ", activation checkpointing" : "";
    return text + ": " + advise::gb_text(plan.per_gpu_bytes) + " GB per GPU";
}

void print_fit(const advise::GpuFit& fit, Footnotes& notes, std::ostream& out)
{
    std::string memory = fit.gpu->memory_gb ? advise::factor_text(*fit.gpu->memory_gb) + " GB" : "memory unknown";
    std::string have = fit.available ? std::to_string(*fit.available) + " x " : "";
    out << "  " << (fit.fits() ? "fits     " : "no fit   ") << have << fit.gpu->name << " (" << memory << ")\n";
    if (!fit.gpu->memory_gb) {
        out << "           the matrix has no memory figure for it\n";
        return;
    }
    if (fit.on_available)
        out << "           on " << *fit.available << ": at least " << advise::gb_text(*fit.on_available)
            << " GB per GPU, more than its " << memory << "\n";
    if (!fit.plan) {
        out << "           not on " << advise::k_max_gpus << " of them or fewer\n";
        return;
    }
    out << "           needs " << plan_text(*fit.plan) << "\n";
    const advise::HostNeeds& h = *fit.host;
    out << "           host for " << h.gpus_per_node << (h.gpus_per_node == 1 ? " GPU" : " GPUs")
        << (h.nodes > 1 ? " (each node)" : "") << ": >= " << h.cpu_cores
        << " CPU cores, >= " << advise::factor_text(h.ram_gb)
        << " GB RAM, NVMe reading >= " << advise::factor_text(h.nvme_mb_s) << " MB/s";
    if (h.network_gbit_s)
        out << ", >= " << advise::factor_text(*h.network_gbit_s) << " Gb/s network with RDMA";
    out << " " << notes.mark(advise::cite::baseline) << "\n";
    if (!fit.links.empty())
        out << "           links: " << fit.links << "\n";
}

void print_advice(const advise::Advice& advice, std::ostream& out)
{
    Footnotes notes;
    print_job(advice.job, notes, out);
    print_memory(advice.memory, notes, out);
    out << "\n"
        << (advice.fits_somewhere() ? "fits" : "does not fit")
        << (advice.gpus_named ? " on the GPUs given\n" : " on some GPU of the matrix\n");
    std::size_t shown = advice.gpus_named ? advice.fits.size() : std::min(advice.fits.size(), k_rows_shown);
    for (std::size_t i = 0; i < shown; ++i)
        print_fit(advice.fits[i], notes, out);
    if (shown < advice.fits.size())
        out << "  (" << advice.fits.size() - shown << " more GPUs in --json, or name yours with --gpus)\n";
    for (const auto& r : advice.rules)
        out << "\nrule of thumb: " << r.claim << "\n  " << r.arithmetic << "\n  it holds with " << r.holds_when << "\n";
    out << "\n";
    notes.print(out);
}

} // namespace

void register_advise(CLI::App& app, Options& options, int& exit_code)
{
    auto args = std::make_shared<AdviseArgs>();
    auto& r = args->request;
    auto* cmd = app.add_subcommand("advise", "Say what hardware a training or inference job needs, and why");
    cmd->add_option("--model-params", r.model_params, "parameter count: 7B, 350M, 25557032")->type_name("COUNT");
    cmd->add_option("--model", r.model, "a known model: llama-2-7b, llama-2-13b, llama-2-70b, resnet50")
        ->type_name("NAME");
    cmd->add_option("--task", r.task, "full-finetune, lora, qlora, inference or train")->type_name("TASK");
    cmd->add_option("--precision", r.precision, "fp32, fp16, bf16 (default) or fp8 (inference)")
        ->type_name("PRECISION");
    cmd->add_option("--optimizer", r.optimizer, "adamw (default), sgd (with momentum) or adam8bit")
        ->type_name("OPTIMIZER");
    cmd->add_option("--seq-len", r.seq_len, "tokens per sequence (default 2048)")->type_name("N");
    cmd->add_option("--batch", r.batch, "sequences or images per GPU (default 1)")->type_name("N");
    cmd->add_option("--lora-rank", r.lora_rank, "LoRA rank (default 16)")->type_name("N");
    cmd->add_option("--layers", r.layers, "transformer layers (config.json num_hidden_layers)")->type_name("N");
    cmd->add_option("--hidden", r.hidden, "hidden size (hidden_size)")->type_name("N");
    cmd->add_option("--heads", r.heads, "attention heads (num_attention_heads)")->type_name("N");
    cmd->add_option("--kv-heads", r.kv_heads, "K/V heads (num_key_value_heads; default --heads)")->type_name("N");
    cmd->add_option("--gpus", args->gpus, "GPUs you have, as `dlenv check --gpu` names them: \"RTX 4090\", \"4x A100\"")
        ->type_name("[Nx ]MODEL");
    cmd->add_flag("--json", options.json, "Print the estimate and the fits as JSON");
    cmd->callback([args, &options, &exit_code] {
        advise::Job job = advise::parse_job(args->request);
        advise::Advice advice = advise::advise(load_matrix(options), job, args->gpus);
        if (options.json)
            print_json(advise::to_json(advice));
        else
            print_advice(advice, std::cout);
        exit_code = advice.fits_somewhere() ? 0 : 1;
    });
}

} // namespace dlenv::cli
