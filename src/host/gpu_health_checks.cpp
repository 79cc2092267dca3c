// The doctor's checks of each GPU's health, from `nvidia-smi -q -x`: its PCIe link, why its
// clocks are held down, its temperature and its ECC errors; and the state of its NVLink links.
#include "host/doctor.h"

#include <functional>
#include <map>

namespace dlenv::host {
namespace {

constexpr int k_temperature_margin_c = 10;

// Clock reasons that are settings, not faults.
bool is_setting(const std::string& reason)
{
    return reason == "applications_clocks_setting" || reason == "display_clocks_setting" || reason == "sync_boost";
}

std::string subject(const GpuHealth& gpu, std::size_t index)
{
    return "GPU " + std::to_string(index) + " (" + gpu.name + (gpu.bus_id.empty() ? "" : ", " + gpu.bus_id) + ")";
}

std::string join(const std::vector<std::string>& items)
{
    std::string out;
    for (const auto& item : items)
        out += (out.empty() ? "" : ", ") + item;
    return out;
}

// One finding per GPU, or one `unknown` finding when `nvidia-smi -q -x` did not answer.
std::vector<Finding> per_gpu(
    const HostState& host, const Finding& base, const std::function<void(const GpuHealth&, Finding&)>& judge)
{
    if (!host.gpu_health || host.gpu_health->empty()) {
        Finding f = base;
        f.message = !host.driver             ? "no NVIDIA driver found: GPU health not visible"
            : !host.gpu_health_error.empty() ? "not visible: " + host.gpu_health_error
                                             : "not visible: `nvidia-smi -q -x` did not answer";
        return { f };
    }
    std::vector<Finding> out;
    for (std::size_t i = 0; i < host.gpu_health->size(); ++i) {
        Finding f = base;
        f.subject = subject((*host.gpu_health)[i], i);
        judge((*host.gpu_health)[i], f);
        f.message = f.subject + ": " + f.message;
        out.push_back(std::move(f));
    }
    return out;
}

void judge_pcie(const GpuHealth& gpu, Finding& f)
{
    const PcieLink& l = gpu.pcie;
    if (!l.generation || !l.max_generation || !l.width || !l.max_width) {
        f.message = "the link's generation or width is not reported";
        return;
    }
    f.value = "PCIe gen " + std::to_string(*l.generation) + " x" + std::to_string(*l.width) + " (max gen "
        + std::to_string(*l.max_generation) + " x" + std::to_string(*l.max_width) + ")";
    f.measured = double(*l.width);
    f.unit = "lanes";
    f.verdict = Verdict::ok;
    f.message = f.value;
    if (*l.width < *l.max_width) {
        f.verdict = Verdict::warn;
        f.message += ": trained to fewer lanes than it has; reseat the card or move it to a full-width slot";
    } else if (*l.generation < *l.max_generation) {
        if (gpu.idle) {
            f.message += ": idle, and links train down at idle; run the doctor under load to see its full speed";
        } else {
            f.verdict = Verdict::warn;
            f.message += ": below its generation while busy; check the slot, riser and BIOS PCIe setting";
        }
    }
}

void judge_clocks(const GpuHealth& gpu, Finding& f)
{
    std::vector<std::string> faults, settings;
    for (const auto& reason : gpu.clock_reasons)
        (is_setting(reason) ? settings : faults).push_back(reason);
    f.value = gpu.clock_reasons.empty() ? "no active reason" : join(gpu.clock_reasons);
    f.value += gpu.idle ? " (idle)" : "";
    f.verdict = faults.empty() ? Verdict::ok : Verdict::warn;
    if (!faults.empty())
        f.message = "clocks held down by " + join(faults)
            + ": check cooling, power cables and `nvidia-smi -q -d PERFORMANCE`";
    else
        f.message = settings.empty() ? "no power or thermal limit holds the clocks down"
                                     : "clocks follow settings only (" + join(settings) + ")";
}

void judge_temperature(const GpuHealth& gpu, Finding& f)
{
    if (!gpu.temperature_c) {
        f.message = "the temperature is not reported";
        return;
    }
    f.measured = double(*gpu.temperature_c);
    f.unit = "C";
    std::optional<int> margin = gpu.margin_c;
    if (!margin && gpu.slowdown_c)
        margin = *gpu.slowdown_c - *gpu.temperature_c;
    f.value = std::to_string(*gpu.temperature_c) + " C";
    if (!margin) {
        f.message = f.value + ", no slowdown temperature reported";
        return;
    }
    f.value += ", " + std::to_string(*margin) + " C below slowdown";
    f.verdict = *margin >= k_temperature_margin_c ? Verdict::ok : Verdict::warn;
    f.message
        = f.value + (f.verdict == Verdict::ok ? "" : ": under load it will slow down; check airflow and the fans");
}

void judge_ecc(const GpuHealth& gpu, Finding& f)
{
    if (gpu.ecc_mode != "Enabled" && gpu.ecc_mode != "Disabled") {
        f.message = "no ECC on this GPU: memory errors go unseen";
        return;
    }
    if (gpu.ecc_mode == "Disabled") {
        f.verdict = Verdict::warn;
        f.value = "ECC disabled";
        f.message = "ECC is disabled: memory errors corrupt results silently; `nvidia-smi -e 1` and a reboot turn "
                    "it on";
        return;
    }
    std::uint64_t now = gpu.ecc_volatile_uncorrectable.value_or(0);
    std::uint64_t ever = gpu.ecc_aggregate_uncorrectable.value_or(0);
    f.value
        = std::to_string(now) + " uncorrectable since the driver loaded, " + std::to_string(ever) + " over its life";
    f.measured = double(now);
    f.unit = "errors";
    if (now > 0 || gpu.row_remap_failure) {
        f.verdict = Verdict::fail;
        f.message = f.value
            + (gpu.row_remap_failure
                    ? ", and row remapping has failed: the GPU needs service"
                    : ": results on this GPU cannot be trusted; drain it and reset it (`nvidia-smi -r`)");
    } else if (ever > 0) {
        f.verdict = Verdict::warn;
        f.message = f.value + ": it has had memory errors before; watch it";
    } else {
        f.verdict = Verdict::ok;
        f.message = "no uncorrectable ECC errors";
    }
}

} // namespace

std::vector<Finding> check_gpu_pcie(const HostState& host)
{
    return per_gpu(host,
        { .code = "gpu_pcie_link",
            .why = "the GPU takes its batches and writes its checkpoints (and, without NVLink, exchanges its "
                   "gradients) over PCIe; a link trained below its generation or width divides that bandwidth",
            .threshold = "the link's maximum generation and width" },
        judge_pcie);
}

std::vector<Finding> check_gpu_clocks(const HostState& host)
{
    return per_gpu(host,
        { .code = "gpu_clock_reasons",
            .why = "clocks held down by a power cap, a thermal or hardware slowdown or a power brake slow every "
                   "training step; sync boost and application clocks are settings, not faults",
            .threshold = "no power or thermal slowdown active" },
        judge_clocks);
}

std::vector<Finding> check_gpu_temperature(const HostState& host)
{
    return per_gpu(host,
        { .code = "gpu_temperature",
            .why = "a GPU at its slowdown temperature lowers its clocks; a margin that is small now is gone "
                   "under a training load",
            .threshold = ">= 10 C below the slowdown temperature" },
        judge_temperature);
}

std::vector<Finding> check_gpu_ecc(const HostState& host)
{
    return per_gpu(host,
        { .code = "gpu_ecc",
            .why = "an uncorrectable memory error corrupts what the GPU computes, and a job that all-reduces with "
                   "it spreads the damage to every replica",
            .threshold = "0 uncorrectable ECC errors" },
        judge_ecc);
}

Finding check_nvlink(const HostState& host)
{
    Finding f { .code = "nvlink",
        .why = "NVLink carries the all-reduce between GPUs at many times PCIe's speed; a link that is down "
               "(an unseated bridge, a failed lane) slows every step, and only a GPU with fewer active links "
               "than its twins in the same box shows it",
        .threshold = "as many active links as the other GPUs of the same model",
        .unit = "links" };
    if (!host.driver) {
        f.message = "no NVIDIA driver found: NVLink not visible";
        return f;
    }
    if (!host.nvlink) {
        f.message = host.nvlink_error.empty() ? "not visible: `nvidia-smi nvlink --status` did not answer"
                                              : "not visible: " + host.nvlink_error;
        return f;
    }
    std::map<std::string, unsigned> most; // per model
    unsigned total = 0;
    for (const auto& g : *host.nvlink) {
        most[g.name] = std::max(most[g.name], g.active);
        total += g.active;
        if (g.links > 0)
            f.value += (f.value.empty() ? "" : ", ") + ("GPU " + std::to_string(g.gpu)) + " " + std::to_string(g.active)
                + " of " + std::to_string(g.links) + " active";
    }
    f.measured = double(total);
    f.verdict = Verdict::ok;
    if (f.value.empty()) {
        f.value = std::to_string(host.nvlink->size()) + " GPUs, no NVLink";
        f.message = "no NVLink: the GPUs reach each other over PCIe";
        return f;
    }
    std::vector<std::string> short_of;
    for (const auto& g : *host.nvlink)
        if (g.active < most[g.name])
            short_of.push_back("GPU " + std::to_string(g.gpu) + " has " + std::to_string(g.active) + " where another "
                + g.name + " has " + std::to_string(most[g.name]));
    f.message = f.value;
    if (!short_of.empty()) {
        f.verdict = Verdict::warn;
        f.message = join(short_of)
            + ": a bridge or cable is loose or a link is down; `nvidia-smi nvlink -e` "
              "shows each link's errors";
    }
    return f;
}

} // namespace dlenv::host
