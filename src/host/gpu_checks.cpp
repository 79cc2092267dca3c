// The doctor's checks of the driver, the GPUs and the links between them.
#include "host/doctor.h"

#include <map>

namespace dlenv::host {
namespace {

constexpr const char* k_no_driver = "no NVIDIA driver found";

constexpr const char* k_driver_why
    = "CUDA images bring their own toolkit but use the host's driver (the kernel module and libcuda.so.1); "
      "without it no job on this machine can use a GPU";

std::string floor_text(const DriverFloor& floor)
{
    return ">= " + floor.toolkit.text()
        + (floor.minor_version ? " (>= " + floor.minor_version->text() + " under minor-version compatibility)" : "");
}

std::string spec_text(const GpuSpec& spec)
{
    std::string out = spec.compute_capability.sm_name();
    if (!spec.architecture.empty())
        out += " (" + spec.architecture + ")";
    if (spec.memory_gb)
        out += ", " + number_text(*spec.memory_gb) + " GB" + (spec.memory_type.empty() ? "" : " " + spec.memory_type);
    if (spec.bandwidth_gb_s)
        out += ", " + number_text(*spec.bandwidth_gb_s) + " GB/s";
    return out;
}

std::string_view link_name(Link link)
{
    switch (link) {
    case Link::nvlink:
        return "NVLink";
    case Link::pcie_switch:
        return "PCIe switch";
    case Link::host_bridge:
        return "PCIe host bridge";
    case Link::cross_socket:
        return "across CPU sockets";
    }
    return "";
}

} // namespace

Finding check_driver(const std::optional<DriverFacts>& driver)
{
    Finding f { .code = "driver", .verdict = Verdict::ok, .why = k_driver_why, .threshold = "an NVIDIA driver" };
    if (!driver) {
        f.verdict = Verdict::fail;
        f.message = std::string(k_no_driver) + ": neither NVML (libnvidia-ml.so.1) nor nvidia-smi answered";
        return f;
    }
    f.value = driver->driver.text();
    f.message
        = "NVIDIA driver " + f.value + " (read through " + (driver->method == "nvml" ? "NVML" : driver->method) + ")";
    return f;
}

Finding check_driver_floor(const std::optional<DriverFacts>& driver, const DriverFloor& floor)
{
    Finding f { .code = "driver_lock",
        .why = "the image's CUDA runtime refuses to start (cudaErrorInsufficientDriver) on a driver older than "
               "its toolkit's floor, and under minor-version compatibility PTX from a newer toolkit cannot be "
               "JIT-compiled",
        .threshold = floor_text(floor) };
    if (!driver) {
        f.message = std::string(k_no_driver) + ": cannot compare with the floor of " + floor.lock;
        return f;
    }
    const auto& version = driver->driver;
    f.value = version.text();
    if (version >= floor.toolkit) {
        f.verdict = Verdict::ok;
        f.message = "driver " + f.value + " meets the floor of " + floor.lock + " (" + floor.toolkit.text() + ")";
    } else if (floor.minor_version && version >= *floor.minor_version) {
        f.verdict = Verdict::warn;
        f.message = "driver " + f.value + " is below the toolkit floor of " + floor.lock + " (" + floor.toolkit.text()
            + "): it runs under minor-version compatibility; upgrade to " + floor.toolkit.text()
            + " or later for every feature of the lock's CUDA";
    } else if (floor.forward_compat) {
        f.verdict = Verdict::warn;
        f.message = "driver " + f.value + " is below the floor of " + floor.lock
            + ": the image runs only through the cuda-compat package the lock asks for (data-center GPUs only)";
    } else {
        f.verdict = Verdict::fail;
        f.message = "driver " + f.value + " is below the floor of " + floor.lock + " ("
            + (floor.minor_version ? *floor.minor_version : floor.toolkit).text()
            + "): the image's CUDA will not start; upgrade the driver to " + floor.toolkit.text() + " or later";
    }
    return f;
}

std::vector<Finding> check_gpu_models(const std::optional<DriverFacts>& driver, const GpuLookup& lookup)
{
    const std::string why = "dlenv lock and verify check a GPU's architecture against the image's arch list and "
                            "its measured bandwidth against the spec in the matrix; an unknown model gets neither";
    if (!driver || driver->gpus.empty())
        return { Finding { .code = "gpu",
            .verdict = driver ? Verdict::fail : Verdict::unknown,
            .message = driver ? "the driver sees no GPU" : std::string(k_no_driver),
            .why = why,
            .measured = driver ? std::optional<double>(0) : std::nullopt,
            .unit = driver ? "GPUs" : "" } };
    std::map<std::string, unsigned> count; // models in the order of their first index
    std::vector<const DetectedGpu*> models;
    for (const auto& gpu : driver->gpus)
        if (count[gpu.name]++ == 0)
            models.push_back(&gpu);
    std::vector<Finding> out;
    for (const DetectedGpu* gpu : models) {
        unsigned n = count[gpu->name];
        std::string label = (n > 1 ? std::to_string(n) + " x " : "") + gpu->name;
        Finding f { .code = "gpu",
            .verdict = Verdict::ok,
            .why = why,
            .value = gpu->name,
            .threshold = "a model the matrix knows",
            .measured = double(n),
            .unit = "GPUs" };
        if (auto spec = lookup(gpu->name)) {
            f.message = label + ": " + spec_text(*spec);
        } else {
            f.verdict = Verdict::warn;
            f.message = label + ": not in dlenv's GPU matrix"
                + (gpu->compute_capability ? " (the driver reports " + gpu->compute_capability->sm_name() + ")"
                                           : std::string());
        }
        out.push_back(std::move(f));
    }
    return out;
}

Finding check_topology(const HostState& host)
{
    const auto& topology = host.topology;
    Finding f { .code = "gpu_topology",
        .why = "multi-GPU training all-reduces gradients every step; NVLink carries hundreds of GB/s, PCIe tens, "
               "and traffic across CPU sockets less still, so the slowest link sets the step time",
        .threshold = "no GPU pair across CPU sockets" };
    if (!host.driver) {
        f.message = std::string(k_no_driver) + ": topology not visible";
        return f;
    }
    if (!topology) {
        f.message = host.topology_error.empty() ? "not visible: `nvidia-smi topo -m` did not answer"
                                                : "not visible: " + host.topology_error;
        return f;
    }
    f.verdict = Verdict::ok;
    if (topology->pairs.empty()) {
        f.message = "one GPU: no links between GPUs to check";
        f.value = "1 GPU";
        return f;
    }
    std::map<Link, unsigned> links;
    for (const auto& pair : topology->pairs)
        ++links[pair.link];
    f.value = std::to_string(topology->pairs.size()) + (topology->pairs.size() == 1 ? " GPU pair:" : " GPU pairs:");
    for (const auto& [link, n] : links)
        f.value
            += std::string(f.value.back() == ':' ? " " : ", ") + std::to_string(n) + " " + std::string(link_name(link));
    if (links.count(Link::cross_socket)) {
        f.verdict = Verdict::warn;
        f.message = f.value + ": all-reduce between GPUs on different sockets goes through the CPU interconnect";
    } else {
        f.message = f.value;
    }
    return f;
}

} // namespace dlenv::host
