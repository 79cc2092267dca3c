#include "verify/gpu_tier_evaluation.h"

#include <cstdio>
#include <string>
#include <vector>

namespace dlenv::verify {
namespace {

// A number as people read it in a message: 2900.5 and 3350 as measured or specified,
// fractions to three digits (0.866).
std::string number_text(double value, int digits = 6)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    return text;
}

// One spec a measured figure is held to.
struct Spec {
    std::string figure; // the kit's figure name: "memory_bandwidth"
    std::string unit; // the unit of the matrix's spec, which the kit's figure must use
    std::string fraction; // the report's fraction name, after gpu<N>_
    std::string code; // the finding
    std::string what; // words for the measurement: "memory bandwidth"
    std::string missing; // what the matrix lacks, for the skip
    std::optional<double> (*peak)(const matrix::Gpu&);
    double lock::Thresholds::*threshold;
};

const std::vector<Spec> k_specs = {
    { "memory_bandwidth", "GB/s", "bandwidth_fraction", "bandwidth", "memory bandwidth", "memory bandwidth",
        [](const matrix::Gpu& gpu) { return gpu.bandwidth_gb_s; }, &lock::Thresholds::bandwidth_min_fraction },
    { "gemm_fp16", "TFLOPS", "gemm_fp16_fraction", "gemm-throughput", "FP16 GEMM throughput",
        "dense FP16 tensor-core peak",
        [](const matrix::Gpu& gpu) { return gpu.tensor_tflops ? gpu.tensor_tflops->fp16 : std::nullopt; },
        &lock::Thresholds::gemm_min_fraction },
    { "gemm_bf16", "TFLOPS", "gemm_bf16_fraction", "gemm-throughput", "BF16 GEMM throughput",
        "dense BF16 tensor-core peak",
        [](const matrix::Gpu& gpu) { return gpu.tensor_tflops ? gpu.tensor_tflops->bf16 : std::nullopt; },
        &lock::Thresholds::gemm_min_fraction },
};

void hold_to_spec(const Spec& spec, const KitDevice& device, const KitFigure& figure, const matrix::Matrix& matrix,
    double threshold, TierReport& tier)
{
    std::string gpu_text = "GPU " + std::to_string(device.index) + " (" + device.name + ")";
    std::string measured = number_text(figure.value) + " " + figure.unit;
    const matrix::Gpu* gpu = matrix.find_gpu(device.name);
    double peak = gpu ? spec.peak(*gpu).value_or(0) : 0; // 0: the matrix has none
    std::string why = figure.unit != spec.unit ? "the matrix's spec is in " + spec.unit
        : !gpu                                 ? "the matrix does not know this model"
        : peak <= 0                            ? "the matrix has no " + spec.missing + " for this model"
                                               : "";
    if (!why.empty()) {
        tier.findings.push_back({ spec.code, Verdict::unknown,
            gpu_text + ": " + spec.what + " " + measured + " is reported as a figure only: " + why });
        return;
    }
    double fraction = figure.value / peak;
    std::string name = "gpu" + std::to_string(device.index) + "_" + spec.fraction;
    tier.figures.push_back({ name, fraction, "fraction", threshold });
    std::string facts = spec.what + " " + measured + " is " + number_text(fraction, 3) + " of the " + number_text(peak)
        + " " + figure.unit + " spec";
    if (fraction < threshold)
        tier.findings.push_back(
            { spec.code, Verdict::fail, gpu_text + ": " + facts + ", under the threshold " + number_text(threshold) });
    else
        tier.findings.push_back({ spec.code, Verdict::ok,
            gpu_text + ": " + facts + ", at or above the threshold " + number_text(threshold) });
}

} // namespace

void evaluate_kit_output(
    const KitOutput& output, const matrix::Matrix& matrix, const lock::Thresholds& thresholds, TierReport& tier)
{
    tier.findings.insert(tier.findings.end(), output.findings.begin(), output.findings.end());
    for (const auto& figure : output.figures)
        tier.figures.push_back(
            { figure.device ? "gpu" + std::to_string(*figure.device) + "_" + figure.name : figure.name, figure.value,
                figure.unit, std::nullopt });
    for (const auto& figure : output.figures)
        for (const auto& spec : k_specs)
            if (figure.device && figure.name == spec.figure)
                hold_to_spec(
                    spec, *find_device(output, *figure.device), figure, matrix, thresholds.*spec.threshold, tier);
}

} // namespace dlenv::verify
