#include "host/gpu_probe.h"

#include "core/error.h"
#include "core/shared_library.h"
#include "core/subprocess.h"

#include <cctype>
#include <sstream>

namespace dlenv::host {
namespace {

// The few NVML entry points used, declared by hand so the build needs no NVIDIA headers.
using nvmlReturn = int;
using nvmlDevice = void*;
constexpr nvmlReturn k_nvml_success = 0;
struct NvmlMemory {
    unsigned long long total, free, used; // bytes
};

struct Nvml {
    nvmlReturn (*init)();
    nvmlReturn (*shutdown)();
    nvmlReturn (*driver_version)(char*, unsigned);
    nvmlReturn (*device_count)(unsigned*);
    nvmlReturn (*device_by_index)(unsigned, nvmlDevice*);
    nvmlReturn (*device_name)(nvmlDevice, char*, unsigned);
    nvmlReturn (*compute_capability)(nvmlDevice, int*, int*);
    nvmlReturn (*memory_info)(nvmlDevice, NvmlMemory*);
    nvmlReturn (*uuid)(nvmlDevice, char*, unsigned);
};

// NVML_DEVICE_UUID_V2_BUFFER_SIZE: a UUID with its terminating NUL fits in 96 characters.
constexpr unsigned k_nvml_uuid_size = 96;

std::optional<DriverFacts> probe_nvml()
{
    std::optional<SharedLibrary> library = SharedLibrary::open("libnvidia-ml.so.1");
    if (!library)
        return std::nullopt;
    Nvml nvml {};
    const SharedLibrary& lib = *library;
    if (!lib.bind("nvmlInit_v2", nvml.init) || !lib.bind("nvmlShutdown", nvml.shutdown)
        || !lib.bind("nvmlSystemGetDriverVersion", nvml.driver_version)
        || !lib.bind("nvmlDeviceGetCount_v2", nvml.device_count)
        || !lib.bind("nvmlDeviceGetHandleByIndex_v2", nvml.device_by_index)
        || !lib.bind("nvmlDeviceGetName", nvml.device_name)
        || !lib.bind("nvmlDeviceGetCudaComputeCapability", nvml.compute_capability)
        || !lib.bind("nvmlDeviceGetMemoryInfo", nvml.memory_info) || !lib.bind("nvmlDeviceGetUUID", nvml.uuid))
        return std::nullopt;
    if (nvml.init() != k_nvml_success)
        return std::nullopt;
    char text[96] = {};
    unsigned count = 0;
    std::optional<DriverFacts> facts;
    if (nvml.driver_version(text, sizeof text) == k_nvml_success && nvml.device_count(&count) == k_nvml_success) {
        if (auto driver = DriverVersion::try_parse(text)) {
            facts = DriverFacts { *driver, {}, "nvml" };
            for (unsigned i = 0; i < count; ++i) {
                nvmlDevice device = nullptr;
                char name[96] = {};
                int major = 0, minor = 0;
                if (nvml.device_by_index(i, &device) != k_nvml_success
                    || nvml.device_name(device, name, sizeof name) != k_nvml_success)
                    continue;
                DetectedGpu gpu { name, std::nullopt, std::nullopt, std::nullopt };
                char uuid[k_nvml_uuid_size] = {};
                if (nvml.uuid(device, uuid, sizeof uuid) == k_nvml_success)
                    gpu.uuid = GpuUuid::try_parse(uuid);
                if (nvml.compute_capability(device, &major, &minor) == k_nvml_success && major > 0)
                    gpu.compute_capability
                        = ComputeCapability(static_cast<std::uint32_t>(major), static_cast<std::uint32_t>(minor));
                NvmlMemory memory {};
                if (nvml.memory_info(device, &memory) == k_nvml_success && memory.total > 0)
                    gpu.memory_gib = static_cast<double>(memory.total) / (1024.0 * 1024.0 * 1024.0);
                facts->gpus.push_back(std::move(gpu));
            }
        }
    }
    nvml.shutdown();
    return facts;
}

std::string trim(std::string text)
{
    auto first = text.find_first_not_of(" \t\r");
    auto last = text.find_last_not_of(" \t\r");
    return first == std::string::npos ? "" : text.substr(first, last - first + 1);
}

// What nvidia-smi prints for a field the GPU does not report.
constexpr std::string_view k_not_available = "[N/A]";

GpuUuid uuid_field(const std::string& field, const std::string& line)
{
    try {
        return GpuUuid::parse(field);
    } catch (const Error& e) {
        throw Error(ErrorCode::invalid_input,
            "nvidia-smi printed a line dlenv cannot read: '" + line + "': " + e.message(), e.hint());
    }
}

} // namespace

DriverFacts parse_nvidia_smi(const std::string& output)
{
    std::optional<DriverFacts> facts;
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);) {
        if (trim(line).empty())
            continue;
        std::vector<std::string> fields;
        std::istringstream cells(line);
        for (std::string cell; std::getline(cells, cell, ',');)
            fields.push_back(trim(cell));
        auto driver = fields.size() >= 2 ? DriverVersion::try_parse(fields[1]) : std::nullopt;
        if (!driver)
            throw Error(ErrorCode::invalid_input, "nvidia-smi printed a line dlenv cannot read: '" + line + "'",
                "expected: name, driver_version, compute_cap, memory.total, uuid");
        if (!facts)
            facts = DriverFacts { *driver, {}, "nvidia-smi" };
        DetectedGpu gpu { fields[0], std::nullopt, std::nullopt, std::nullopt };
        if (fields.size() >= 3)
            gpu.compute_capability = ComputeCapability::try_parse(fields[2]);
        if (fields.size() >= 4 && !fields[3].empty() && std::isdigit(static_cast<unsigned char>(fields[3][0])))
            gpu.memory_gib = std::stod(fields[3]) / 1024.0;
        if (fields.size() >= 5 && fields[4] != k_not_available)
            gpu.uuid = uuid_field(fields[4], line);
        facts->gpus.push_back(std::move(gpu));
    }
    if (!facts)
        throw Error(ErrorCode::environment, "nvidia-smi listed no GPU", "check that the NVIDIA driver is loaded");
    return *facts;
}

std::optional<DriverFacts> probe_driver()
{
    if (auto facts = probe_nvml())
        return facts;
    auto smi = run_process({ "nvidia-smi", "--query-gpu=name,driver_version,compute_cap,memory.total,uuid",
        "--format=csv,noheader,nounits" });
    if (!smi || smi->exit_code != 0)
        return std::nullopt;
    return parse_nvidia_smi(smi->out);
}

} // namespace dlenv::host
