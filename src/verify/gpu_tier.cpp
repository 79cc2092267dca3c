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

GpuAdmission admit_gpus(const ContainerContext& context, const HostFacts& host, const GpuHost& gpu_host)
{
    GpuAdmission out;
    if (!host.driver) {
        out.unavailable = no_gpu_reason();
        return out;
    }
    const matrix::Matrix& matrix = matrix::Matrix::embedded();
    if (auto requirement = env_value(context.process.env, "NVIDIA_REQUIRE_CUDA")) {
        if (auto refusal = resolve::refuse_require_cuda(*requirement, driver_host(host, matrix), matrix)) {
            out.unavailable = "the image cannot start on this host: NVIDIA_REQUIRE_CUDA=\"" + *requirement
                + "\" refuses driver " + host.driver->text() + ": " + *refusal;
            return out;
        }
        out.findings.push_back({ "require-cuda", Verdict::ok,
            "NVIDIA_REQUIRE_CUDA=\"" + *requirement + "\" accepts driver " + host.driver->text() });
    }
    try {
        out.plan = plan_gpu_injection(gpu_host);
    } catch (const Error& e) {
        out.unavailable = "GPU injection cannot be planned: " + with_hint(e);
        return out;
    }
    out.findings.push_back({ "gpu-injection", Verdict::ok,
        "GPUs injected from " + out.plan.source + ": " + std::to_string(out.plan.devices.size()) + " device nodes, "
            + std::to_string(out.plan.binds.size()) + " binds, " + std::to_string(out.plan.hooks.size()) + " hooks" });
    return out;
}

std::string injection_refused(const Error& e)
{
    return "the GPUs cannot be given to the container: " + with_hint(e);
}

GpuTierResult run_gpu_tier(std::string_view tier, const ContainerContext& context, const HostFacts& host,
    const lock::Thresholds& thresholds, const GpuHost& gpu_host)
{
    auto start = std::chrono::steady_clock::now();
    GpuAdmission admitted = admit_gpus(context, host, gpu_host);
    if (!admitted.unavailable.empty())
        return { std::nullopt, admitted.unavailable };
    TierReport report { std::string(tier), std::move(admitted.findings), {}, 0 };
    KitRun run;
    try {
        run = run_kit(context, tier, admitted.plan);
    } catch (const Error& e) {
        if (e.code() != ErrorCode::environment)
            throw;
        return { std::nullopt, injection_refused(e) };
    }
    if (run.seconds)
        report.figures.push_back({ "kit_seconds", *run.seconds, "s", static_cast<double>(context.timeout_seconds) });
    if (run.output)
        evaluate_kit_output(*run.output, matrix::Matrix::embedded(), thresholds, report);
    else
        report.findings.push_back(*run.failure);
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return { std::move(report), {} };
}

} // namespace dlenv::verify
