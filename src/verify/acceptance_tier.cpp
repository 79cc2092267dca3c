#include "verify/acceptance_tier.h"

#include "core/error.h"
#include "verify/acceptance_evaluation.h"
#include "verify/kit_run.h"

#include <algorithm>
#include <chrono>

namespace dlenv::verify {
namespace {

constexpr std::uint32_t k_min_shm_kib = 65536;
constexpr int k_kit_margin_seconds = 10; // for the kit to report a job past its limit before the runtime kills it

std::vector<std::string> kit_arguments(const resolve::Acceptance& settings, int timeout_seconds)
{
    auto number = [](std::uint32_t value) { return std::to_string(value); };
    return { "--data-dir", std::string(k_acceptance_data_dir), "--model", settings.model, "--batch-size",
        number(settings.batch_size), "--image-size", number(settings.image_size), "--num-workers",
        number(settings.num_workers), "--prefetch-factor", number(settings.prefetch_factor), "--steps",
        number(settings.steps), "--warmup", number(settings.warmup), "--synthetic-images",
        number(settings.synthetic_images), "--synthetic-size", number(settings.synthetic_size), "--limit",
        std::to_string(std::max(1, timeout_seconds - k_kit_margin_seconds)) };
}

// The host directory to bind and how: a given one must be a directory (resolved, so
// the bind is of what it names now); none gives an empty one under the work directory.
BindMount data_bind(const ContainerContext& context, const AcceptanceOptions& options)
{
    std::filesystem::path source;
    if (options.data_dir) {
        std::error_code error;
        source = std::filesystem::canonical(*options.data_dir, error);
        if (error || !std::filesystem::is_directory(source))
            throw Error(ErrorCode::invalid_input, "--data-dir " + options.data_dir->string() + ": not a directory",
                "name a directory in torchvision's ImageFolder layout (DIR/<class>/<image>.JPEG), or an empty one "
                "for a synthetic set");
    } else {
        source = std::filesystem::absolute(context.work_dir / "acceptance-data"); // runc reads binds from the bundle
        std::filesystem::create_directories(source);
    }
    bool empty = std::filesystem::directory_iterator(source) == std::filesystem::directory_iterator();
    return { source.string(), std::string(k_acceptance_data_dir), !empty };
}

std::string cpu_only_reason(const std::string& why)
{
    return "GPU utilisation was not measured: " + why
        + "; the training job ran on the CPU, which proves the data-wait measurement only (run it on a GPU machine "
          "for the utilisation)";
}

} // namespace

std::uint32_t acceptance_shm_kib(const resolve::Acceptance& settings)
{
    double batch_bytes = 4.0 * 3 * settings.image_size * settings.image_size * settings.batch_size;
    double in_flight = static_cast<double>(settings.num_workers) * settings.prefetch_factor + 2;
    double kib = 1.5 * batch_bytes * in_flight / 1024;
    return static_cast<std::uint32_t>(std::clamp(kib, static_cast<double>(k_min_shm_kib), 64.0 * 1024 * 1024));
}

resolve::Acceptance acceptance_settings(
    const AcceptanceOptions& options, const std::optional<resolve::Acceptance>& locked)
{
    resolve::Acceptance settings = options.settings ? *options.settings : locked.value_or(resolve::Acceptance {});
    if (options.batch_size)
        settings.batch_size = *options.batch_size;
    return settings;
}

GpuTierResult run_acceptance_tier(const ContainerContext& context, const HostFacts& host,
    const AcceptanceOptions& options, const resolve::Acceptance& settings, const GpuHost& gpu_host)
{
    auto start = std::chrono::steady_clock::now();
    BindMount data = data_bind(context, options);
    GpuAdmission admitted = admit_gpus(context, host, gpu_host);
    bool gpus = admitted.unavailable.empty();
    TierReport report { "acceptance", std::move(admitted.findings), {}, 0 };
    KitRun run;
    try {
        run = run_kit(context, "acceptance", gpus ? admitted.plan : GpuInjection {},
            { kit_arguments(settings, context.timeout_seconds), { data }, acceptance_shm_kib(settings) });
    } catch (const Error& e) {
        if (e.code() != ErrorCode::environment || !gpus)
            throw;
        return { std::nullopt, injection_refused(e) };
    }
    if (run.seconds)
        report.figures.push_back({ "kit_seconds", *run.seconds, "s", static_cast<double>(context.timeout_seconds) });
    AcceptanceTargets targets { settings, options.data_dir ? data.source : "(a synthetic set)" };
    if (run.output)
        evaluate_acceptance(*run.output, targets, gpus, report);
    else
        report.findings.push_back(*run.failure);
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return { std::move(report),
        gpus ? std::string()
             : cpu_only_reason(host.driver ? admitted.unavailable : "no NVIDIA driver or GPU on this machine") };
}

} // namespace dlenv::verify
