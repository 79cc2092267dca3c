#include "verify/verifier.h"

#include "core/error.h"
#include "core/time_text.h"
#include "host/gpu_probe.h"
#include "matrix/matrix.h"
#include "store/store.h"
#include "store/verifications.h"
#include "verify/engine.h"
#include "verify/gpu_injection.h"
#include "verify/require_cuda.h"
#include "verify/static_tier.h"
#include "verify/unpack.h"
#include "core/temp_directory.h"

#include <sys/utsname.h>

#include <algorithm>

namespace dlenv::verify {
namespace {

HostFacts host_facts()
{
    HostFacts host;
    struct utsname name { };
    if (::uname(&name) == 0)
        host.kernel = name.release;
    if (auto driver = host::probe_driver()) {
        host.driver = driver->driver.text();
        for (const auto& gpu : driver->gpus)
            host.gpus.push_back(gpu.name);
    }
    return host;
}

void check_tiers(const std::vector<std::string>& tiers)
{
    for (const auto& tier : tiers)
        if (tier != k_tier_static && tier != k_tier_gpu && tier != k_tier_framework)
            throw Error(ErrorCode::invalid_input, "unknown tier \"" + tier + "\"",
                "tiers are static, gpu and framework (or all)");
}

// NVIDIA_REQUIRE_CUDA names brands as NVML does; the matrix knows each GPU's segment.
DriverHost driver_host(const HostFacts& host, const matrix::Matrix& matrix)
{
    DriverHost out { DriverVersion::parse(*host.driver), {} };
    for (const auto& name : host.gpus)
        if (const matrix::Gpu* gpu = matrix.find_gpu(name))
            out.brands.push_back(gpu->segment == matrix::GpuSegment::datacenter ? "tesla"
                    : gpu->segment == matrix::GpuSegment::workstation           ? "quadro"
                                                                                : "geforce");
    return out;
}

// Why a GPU tier cannot run here (`env`: the image's, once it is known); the static
// tier always can.
std::string unavailable_reason(const HostFacts& host, const std::vector<std::string>& env = {})
{
    if (!host.driver)
        return "no NVIDIA driver or GPU on this machine; run this tier on a GPU machine "
               "(`--tier static` works without one)";
    const matrix::Matrix& matrix = matrix::Matrix::embedded();
    if (auto requirement = env_value(env, "NVIDIA_REQUIRE_CUDA"))
        if (auto refusal = refuse_require_cuda(*requirement, driver_host(host, matrix), matrix))
            return "the image cannot start on this host: " + *refusal;
    std::string injection;
    try {
        GpuInjection plan = plan_gpu_injection(this_host());
        injection = "GPUs would be injected from " + plan.source + " (" + std::to_string(plan.devices.size())
            + " device nodes, " + std::to_string(plan.binds.size()) + " binds)";
    } catch (const Error& e) {
        injection = "GPU injection cannot be planned: " + e.message();
    }
    return injection
        + "; the GPU and framework kernels are not part of this dlenv version, so this tier cannot "
          "run yet";
}

std::vector<std::string> lock_tiers(const std::optional<lock::Lockfile>& lock)
{
    std::vector<std::string> tiers;
    if (lock)
        for (const auto& tier : lock->json().at("validation").at("tiers"))
            tiers.push_back(tier.get<std::string>());
    return tiers.empty() ? std::vector<std::string> { std::string(k_tier_static) } : tiers;
}

oci::Descriptor find_image(const store::Store& store, const VerifyRequest& request)
{
    const store::ImageRecord& record = store.records().at(request.name);
    auto found = record.tags.find(request.tag);
    if (found == record.tags.end())
        throw Error(ErrorCode::not_found, request.name + " has no tag \"" + request.tag + "\"",
            "`dlenv images` lists the tags of each image");
    return found->second;
}

void record(const VerifyRequest& request, const Report& report)
{
    std::vector<store::TierVerification> tiers;
    for (const auto& tier : report.tiers)
        tiers.push_back({ tier.tier, tier.passed(), report.time, report.tier_json(tier) });
    store::Store store = store::Store::open_for_writing(request.store_dir);
    store::record_verification(store, oci::Digest::parse(report.digest), tiers);
}

} // namespace

Report verify_image(const VerifyRequest& request)
{
    check_tiers(request.tiers);
    Report report;
    report.name = request.name;
    report.host = host_facts();
    bool gpu_only = !request.tiers.empty()
        && std::find(request.tiers.begin(), request.tiers.end(), k_tier_static) == request.tiers.end();
    if (gpu_only)
        throw Error(ErrorCode::environment,
            "the " + request.tiers.front() + " tier cannot run: " + unavailable_reason(report.host));
    Runtime runtime = select_runtime(request.runtime);
    report.runtime = runtime.name;

    TempDirectory work(std::filesystem::temp_directory_path(), "dlenv-verify-");
    UnpackFigures unpacked;
    std::optional<EngineImage> in_engine; // the file checks still read the unpacked rootfs
    StoredImage image = [&] {
        store::Store store = store::Store::open(request.store_dir);
        StoredImage read = read_image(store.layout(), find_image(store, request));
        unpacked = unpack_image(store.layout(), read, work.path() / "rootfs");
        if (runtime.is_engine()) {
            in_engine.emplace(runtime, store.layout(), read.descriptor, read.manifest.config.digest.text(), work.path());
            runtime.image = in_engine->id();
        }
        return read;
    }(); // the shared lock is released here: checks and runs need no store
    report.digest = image.descriptor.digest.text();

    ContainerContext context { runtime, work.path() / "rootfs", work.path() / "runs", image.process,
        request.timeout_seconds };
    std::optional<lock::Lockfile> lock;
    TierReport tier = run_static_tier(image, context, lock);
    double mb = static_cast<double>(unpacked.layer_bytes) / 1e6;
    tier.figures.insert(tier.figures.begin(),
        { { "unpack_seconds", unpacked.seconds, "s", std::nullopt },
            { "unpack_layer_megabytes", mb, "MB", std::nullopt },
            { "unpack_megabytes_per_second", unpacked.seconds > 0 ? mb / unpacked.seconds : 0, "MB/s",
                std::nullopt } });
    report.tiers.push_back(std::move(tier));
    if (lock) {
        report.lock_digest = lock->digest();
        report.thresholds = lock->json().at("validation").at("thresholds");
    }
    for (const auto& wanted : request.tiers.empty() ? lock_tiers(lock) : request.tiers)
        if (wanted != k_tier_static)
            report.unavailable.emplace_back(wanted, unavailable_reason(report.host, image.process.env));
    report.time = rfc3339_utc(now_seconds());
    record(request, report);
    return report;
}

} // namespace dlenv::verify
