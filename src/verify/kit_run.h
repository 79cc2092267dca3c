#pragma once

#include "verify/container_checks.h"
#include "verify/gpu_injection.h"
#include "verify/report.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::verify {

// A GPU as the kit saw it.
struct KitDevice {
    std::uint32_t index = 0;
    std::string name; // as the driver names it: "NVIDIA H100 80GB HBM3"
    std::string compute_capability; // "9.0"
    std::uint32_t multiprocessors = 0;
    std::int64_t memory_bytes = 0;
};

// A raw number the kit measured; thresholds are the host's business.
struct KitFigure {
    std::string name; // "memory_bandwidth", "gemm_fp16", ...
    std::optional<std::uint32_t> device; // a device's index; none: not tied to one device
    double value = 0;
    std::string unit; // "GB/s", "TFLOPS"
};

// What a tier's kit script printed on standard output (the kit contract, "kit": 1).
struct KitOutput {
    std::string tier;
    std::vector<KitDevice> devices;
    std::vector<Finding> findings;
    std::vector<KitFigure> figures;
};

// The device whose index is `index`; null when there is none.
const KitDevice* find_device(const KitOutput& output, std::uint32_t index);

// Parses the standard output of `script` run for `tier`. Fields the contract does not
// name are ignored, so an image built by a newer dlenv still reads. Error(invalid_input)
// naming the script and the field for output that breaks the contract: not JSON,
// another "kit" version, another tier, a missing field, an unknown outcome or a figure
// of a device that is not listed.
KitOutput parse_kit_output(const std::string& script, std::string_view tier, const std::string& text);

// The end of a program's standard error, on one line, for a message: its last lines
// joined with " | ", at most about 600 characters.
std::string error_tail(const std::string& errors);

// What running a kit gave: its output, or the failed `kit-run` finding saying why there
// is none and what to do.
struct KitRun {
    std::optional<KitOutput> output;
    std::optional<Finding> failure;
    std::optional<double> seconds; // how long the container ran; none: it was not started
};

// What a tier's kit gets beyond the GPUs: its arguments after the script, binds (a
// data directory), and the size of /dev/shm (a DataLoader's workers hand batches over
// through it).
struct KitExtras {
    std::vector<std::string> arguments;
    std::vector<BindMount> binds;
    std::uint32_t shm_kib = ContainerSpec {}.shm_kib;
};

// Runs `python3 <rootfs::kit_script(tier)>` in the image as the image runs its own process
// (environment, user, working directory) with the GPUs of `gpus` injected and `extras`,
// at most `context.timeout_seconds`. A kit missing from the image (built before the kit
// existed), an image without python3, a run that timed out, exited nonzero or printed
// no kit JSON each give a failure, never an exception; Error(environment) when the
// runtime cannot run the container at all (see run_container).
KitRun run_kit(
    const ContainerContext& context, std::string_view tier, const GpuInjection& gpus, const KitExtras& extras = {});

// What a finished run of `tier`'s kit gave (run with its standard error apart, limited
// to `timeout_seconds`): the second half of run_kit.
KitRun read_kit_run(const ContainerRun& run, std::string_view tier, int timeout_seconds);

} // namespace dlenv::verify
