// The doctor's checks of CPU, memory and storage: what feeds the GPUs.
#include "host/baselines.h"
#include "host/doctor.h"

namespace dlenv::host {
namespace {

double gib(std::uint64_t kib)
{
    return static_cast<double>(kib) / (1024.0 * 1024.0);
}

// Total GPU memory in GiB: what the driver reports, else the matrix's figure for the model.
std::optional<double> gpu_memory_gib(const DriverFacts& driver, const GpuLookup& lookup)
{
    double total = 0;
    for (const auto& gpu : driver.gpus) {
        if (gpu.memory_gib) {
            total += *gpu.memory_gib;
            continue;
        }
        auto spec = lookup(gpu.name);
        if (!spec || !spec->memory_gb)
            return std::nullopt;
        total += *spec->memory_gb;
    }
    return total;
}

} // namespace

Finding check_cpu_cores(const CpuFacts& cpu, const std::optional<DriverFacts>& driver)
{
    Finding f { .code = "cpu_cores_per_gpu",
        .why = "each GPU's data loader decodes and augments on several CPU worker processes beside the "
               "training process itself; with fewer than 8 cores per GPU the input pipeline becomes the "
               "bottleneck",
        .threshold = ">= 8 CPU cores per GPU",
        .measured = double(cpu.cores),
        .unit = "cores" };
    f.value = std::to_string(cpu.cores) + " CPU cores (" + cpu.source + ")";
    if (!driver || driver->gpus.empty()) {
        f.message = (driver ? std::string("no GPU") : std::string("no NVIDIA driver found")) + ": "
            + std::to_string(cpu.cores) + " CPU cores, no GPU to share them";
        return f;
    }
    double per_gpu = double(cpu.cores) / double(driver->gpus.size());
    f.value += ", " + std::to_string(driver->gpus.size()) + " GPUs";
    if (per_gpu >= k_cores_per_gpu) {
        f.verdict = Verdict::ok;
        f.message = number_text(per_gpu) + " CPU cores per GPU, at least 8";
    } else {
        f.verdict = Verdict::warn;
        f.message
            = number_text(per_gpu) + " CPU cores per GPU, fewer than 8: data loading workers will starve the GPUs";
    }
    return f;
}

Finding check_memory(const MemoryFacts& memory, const std::optional<DriverFacts>& driver, const GpuLookup& lookup)
{
    double ram = gib(memory.total_kib);
    Finding f { .code = "ram_vs_gpu_memory",
        .why = "host memory holds the data loader's workers and prefetch queues, pinned staging buffers and "
               "whole checkpoints while they are saved or loaded; below 2x GPU memory, loading a checkpoint or "
               "offloading to the CPU (FSDP, DeepSpeed) runs the machine out of memory",
        .threshold = ">= 2x the total GPU memory",
        .measured = ram,
        .unit = "GiB" };
    f.value = number_text(ram) + " GiB (MemTotal " + std::to_string(memory.total_kib) + " kB)";
    std::optional<double> gpus = driver ? gpu_memory_gib(*driver, lookup) : std::nullopt;
    if (!driver || driver->gpus.empty() || !gpus || *gpus <= 0) {
        f.message = (!driver                       ? std::string("no NVIDIA driver found: ")
                            : driver->gpus.empty() ? std::string("no GPU: ")
                                                   : std::string("GPU memory unknown: "))
            + "RAM " + number_text(ram) + " GiB, no GPU memory to compare it with";
        return f;
    }
    double ratio = ram / *gpus;
    std::string compared = "RAM " + number_text(ram) + " GiB for " + number_text(*gpus) + " GiB of GPU memory ("
        + number_text(ratio) + "x)";
    if (ratio >= k_ram_per_gpu_memory) {
        f.verdict = Verdict::ok;
        f.message = compared + ", at least 2x";
    } else {
        f.verdict = ratio >= 1 ? Verdict::warn : Verdict::fail;
        f.message = compared
            + (ratio >= 1 ? ", less than 2x: checkpoints and CPU offload will not fit"
                          : ", less than the GPUs hold: a full checkpoint cannot be staged in RAM");
    }
    return f;
}

Finding check_swap(const MemoryFacts& memory)
{
    Finding f { .code = "swap",
        .verdict = Verdict::ok,
        .why = "when memory runs short a training process that can swap slows by orders of magnitude while "
               "holding its GPUs, instead of being stopped at once by the out-of-memory killer",
        .value = number_text(gib(memory.swap_kib)) + " GiB (SwapTotal " + std::to_string(memory.swap_kib) + " kB)",
        .threshold = "no swap",
        .measured = gib(memory.swap_kib),
        .unit = "GiB" };
    if (memory.swap_kib == 0) {
        f.message = "no swap: a job that runs out of memory fails fast instead of thrashing";
    } else {
        f.verdict = Verdict::warn;
        f.message = "swap is on (" + number_text(gib(memory.swap_kib))
            + " GiB): a job that runs out of memory thrashes instead of failing; turn it off with `swapoff -a`";
    }
    return f;
}

Finding check_swappiness(const std::optional<unsigned>& swappiness, const MemoryFacts& memory)
{
    Finding f { .code = "swappiness",
        .why = "with swap on, a swappiness above 0 lets the kernel page a training job's memory (its data "
               "loaders' buffers, optimizer state offloaded to the CPU) out to grow the page cache; 0 keeps it in "
               "RAM until memory truly runs out",
        .threshold = "vm.swappiness = 0" };
    if (!swappiness) {
        f.message = "/proc/sys/vm/swappiness is not there";
        return f;
    }
    f.value = "vm.swappiness = " + std::to_string(*swappiness);
    f.measured = double(*swappiness);
    f.verdict = Verdict::ok;
    if (memory.swap_kib == 0)
        f.message = f.value + ", and no swap for it to act on";
    else if (*swappiness == 0)
        f.message = f.value + ": the kernel swaps only when memory runs out";
    else {
        f.verdict = Verdict::warn;
        f.message = f.value
            + " with swap on: a job's memory can be paged out under page-cache pressure; "
              "`sysctl vm.swappiness=0` (and vm.swappiness = 0 in /etc/sysctl.d/) stops it";
    }
    return f;
}

Finding check_read_speed(const HostState& host)
{
    Finding f { .code = "data_read_speed",
        .why = "training streams its data set from this directory; storage slower than local NVMe (2 GB/s and "
               "up) leaves the GPUs waiting for input unless the data set fits in the page cache",
        .threshold = ">= 2000 MB/s (local NVMe)" };
    std::string where = host.data_dir.string();
    if (!host.read) {
        f.message = "cannot measure the read speed of " + where + ": " + host.read_error;
        return f;
    }
    double speed = host.read->megabytes_per_second();
    f.measured = speed;
    f.unit = "MB/s";
    f.value = number_text(speed) + " MB/s reading " + std::to_string(host.read->bytes >> 20) + " MiB "
        + (host.read->direct ? "with O_DIRECT" : "buffered, after dropping it from the page cache");
    std::string measured = "sequential read " + number_text(speed) + " MB/s from " + where;
    if (speed >= k_nvme_mb_s) {
        f.verdict = Verdict::ok;
        f.message = measured + ", at least 2000 MB/s";
    } else {
        f.verdict = Verdict::warn;
        f.message = measured + ", below 2000 MB/s: slower than local NVMe; stage the data set on NVMe or cache it";
    }
    if (!host.read->direct)
        f.message += " (no O_DIRECT here: the figure may include memory speed)";
    return f;
}

} // namespace dlenv::host
