#include "verify/acceptance_evaluation.h"

#include "matrix/matrix.h"
#include "verify/gpu_tier_evaluation.h"

#include <cstdio>
#include <optional>

namespace dlenv::verify {
namespace {

constexpr double k_cores_per_gpu_baseline = 8;

std::string text(double value)
{
    char out[32];
    std::snprintf(out, sizeof out, "%.3g", value);
    return out;
}

std::optional<double> kit_figure(const KitOutput& output, const std::string& name)
{
    for (const auto& figure : output.figures)
        if (!figure.device && figure.name == name)
            return figure.value;
    return std::nullopt;
}

void set_threshold(TierReport& tier, const std::string& name, double threshold)
{
    for (auto& figure : tier.figures)
        if (figure.name == name)
            figure.threshold = threshold;
}

std::string cores_text(const KitOutput& output)
{
    double cores = kit_figure(output, "cpu_cores").value_or(0);
    if (output.devices.empty())
        return "the CPU cores per GPU (" + text(cores) + " cores here and no GPU; " + text(k_cores_per_gpu_baseline)
            + " or more per GPU is the baseline)";
    return "the CPU cores per GPU (" + text(cores / static_cast<double>(output.devices.size()))
        + " here: " + text(cores) + " cores for " + std::to_string(output.devices.size()) + " GPU(s); "
        + text(k_cores_per_gpu_baseline) + " or more is the baseline)";
}

Finding data_wait_finding(const KitOutput& output, const AcceptanceTargets& targets, double fraction)
{
    const resolve::Acceptance& settings = targets.settings;
    double wait = kit_figure(output, "data_wait_seconds").value_or(0);
    double step = kit_figure(output, "step_seconds").value_or(0);
    std::string facts
        = "data loading takes " + text(fraction) + " of each step (" + text(wait) + " s of " + text(step) + " s)";
    if (fraction < settings.data_wait_max_fraction)
        return { "data-wait", Verdict::ok, facts + ", under the limit " + text(settings.data_wait_max_fraction) };
    double read_ms = kit_figure(output, "read_milliseconds_per_image").value_or(0);
    double decode_ms = kit_figure(output, "decode_milliseconds_per_image").value_or(0);
    double megabytes = kit_figure(output, "read_megabytes_per_second").value_or(0);
    std::string workers = std::to_string(settings.num_workers);
    std::string read_speed = "the read speed of the data dir " + targets.data_dir + " (" + text(megabytes)
        + " MB/s per worker here; local NVMe reads 2 GB/s and more)";
    std::string counts
        = "num_workers (" + workers + "; set it in the profile's validation.acceptance, up to the cores per GPU)";
    bool reading = read_ms >= decode_ms;
    return { "data-wait", Verdict::fail,
        facts + ", over the limit " + text(settings.data_wait_max_fraction) + ": the DataLoader's " + workers
            + " workers read each image in " + text(read_ms) + " ms (" + text(megabytes) + " MB/s) and decode it in "
            + text(decode_ms) + " ms, so " + (reading ? "reading" : "decoding") + " is the slower part; look at "
            + (reading ? read_speed + ", then " + cores_text(output) + " and " + counts
                       : cores_text(output) + " and " + counts + ", then " + read_speed) };
}

Finding utilization_finding(
    const KitDevice& device, double busy, const AcceptanceTargets& targets, std::optional<double> data_wait)
{
    double limit = targets.settings.gpu_utilization_min;
    std::string facts
        = "GPU " + std::to_string(device.index) + " (" + device.name + ") was busy " + text(busy) + " of the time";
    if (busy >= limit)
        return { "gpu-utilization", Verdict::ok, facts + ", at or above " + text(limit) };
    bool starved = data_wait && *data_wait >= targets.settings.data_wait_max_fraction;
    return { "gpu-utilization", Verdict::fail,
        facts + ", under " + text(limit) + ": "
            + (starved ? "it waits for data (see data-wait): fix the data loading first"
                       : "data arrives in time (" + text(data_wait.value_or(0))
                        + " of each step), so the job itself leaves the GPU idle: raise the batch size ("
                        + std::to_string(targets.settings.batch_size)
                        + " now, --batch-size) and see that the GPU is not throttled "
                          "(nvidia-smi -q -d PERFORMANCE)") };
}

} // namespace

void evaluate_acceptance(
    const KitOutput& output, const AcceptanceTargets& targets, bool gpus_injected, TierReport& tier)
{
    evaluate_kit_output(output, matrix::Matrix::embedded(), lock::Thresholds {}, tier);
    std::optional<double> data_wait = kit_figure(output, "data_wait_fraction");
    if (!data_wait)
        return; // the job did not run: the kit's findings say why
    set_threshold(tier, "data_wait_fraction", targets.settings.data_wait_max_fraction);
    tier.findings.push_back(data_wait_finding(output, targets, *data_wait));
    bool sampled = false;
    for (const auto& figure : output.figures)
        if (figure.device && figure.name == "utilization") {
            sampled = true;
            set_threshold(
                tier, "gpu" + std::to_string(*figure.device) + "_utilization", targets.settings.gpu_utilization_min);
            tier.findings.push_back(
                utilization_finding(*find_device(output, *figure.device), figure.value, targets, data_wait));
        }
    if (gpus_injected && !sampled)
        tier.findings.push_back({ "gpu-utilization", Verdict::fail,
            "the GPUs were injected but none was sampled: the image's framework saw no GPU (a CPU-only build) or NVML "
            "could not be read (see utilization-sampling)" });
}

} // namespace dlenv::verify
