#include "verify/gpu_tier.h"

#include "core/error.h"
#include "matrix/matrix.h"
#include "resolve/require_cuda.h"
#include "verify/kit_run.h"

#include <chrono>

namespace dlenv::verify {
namespace {

// NVIDIA_REQUIRE_CUDA names brands as NVML does; the matrix knows each GPU's segment.
resolve::DriverHost driver_host(const HostFacts& host, const matrix::Matrix& matrix)
{
    resolve::DriverHost out { *host.driver, {} };
    for (const auto& name : host.gpus)
        if (const matrix::Gpu* gpu = matrix.find_gpu(name))
            out.brands.push_back(resolve::nvidia_brand(gpu->segment));
    return out;
}

std::string with_hint(const Error& e)
{
    return e.message() + (e.hint().empty() ? std::string() : " (" + e.hint() + ")");
}

} // namespace

std::string no_gpu_reason()
{
    return "no NVIDIA driver or GPU on this machine; run this tier on a GPU machine "
           "(`--tier static` works without one)";
}

GpuTierResult run_gpu_tier(std::string_view tier, const ContainerContext& context, const HostFacts& host,
    const lock::Thresholds& thresholds, const GpuHost& gpu_host)
{
    if (!host.driver)
        return { std::nullopt, no_gpu_reason() };
    auto start = std::chrono::steady_clock::now();
    TierReport report { std::string(tier), {}, {}, 0 };
    const matrix::Matrix& matrix = matrix::Matrix::embedded();
    if (auto requirement = env_value(context.process.env, "NVIDIA_REQUIRE_CUDA")) {
        if (auto refusal = resolve::refuse_require_cuda(*requirement, driver_host(host, matrix), matrix))
            return { std::nullopt,
                "the image cannot start on this host: NVIDIA_REQUIRE_CUDA=\"" + *requirement + "\" refuses driver "
                    + host.driver->text() + ": " + *refusal };
        report.findings.push_back({ "require-cuda", Verdict::ok,
            "NVIDIA_REQUIRE_CUDA=\"" + *requirement + "\" accepts driver " + host.driver->text() });
    }
    GpuInjection plan;
    try {
        plan = plan_gpu_injection(gpu_host);
    } catch (const Error& e) {
        return { std::nullopt, "GPU injection cannot be planned: " + with_hint(e) };
    }
    report.findings.push_back({ "gpu-injection", Verdict::ok,
        "GPUs injected from " + plan.source + ": " + std::to_string(plan.devices.size()) + " device nodes, "
            + std::to_string(plan.binds.size()) + " binds, " + std::to_string(plan.hooks.size()) + " hooks" });
    KitRun run;
    try {
        run = run_kit(context, tier, plan);
    } catch (const Error& e) {
        if (e.code() != ErrorCode::environment)
            throw;
        return { std::nullopt, "the GPUs cannot be given to the container: " + with_hint(e) };
    }
    if (run.seconds)
        report.figures.push_back({ "kit_seconds", *run.seconds, "s", static_cast<double>(context.timeout_seconds) });
    if (run.output)
        evaluate_kit_output(*run.output, matrix, thresholds, report);
    else
        report.findings.push_back(*run.failure);
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return { std::move(report), {} };
}

} // namespace dlenv::verify
