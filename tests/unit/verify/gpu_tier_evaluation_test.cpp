#include "core/file.h"
#include "matrix/matrix.h"
#include "verify/gpu_tier_evaluation.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

verify::TierReport evaluate(const std::string& fixture, const lock::Thresholds& thresholds = {})
{
    std::string text = read_file(std::filesystem::path(DLENV_SOURCE_DIR) / "tests" / "fixtures" / "kit" / fixture);
    verify::TierReport tier { "gpu", {}, {}, 0 };
    verify::evaluate_kit_output(verify::parse_kit_output("/opt/dlenv/kit/gpu_tier.py", "gpu", text),
        matrix::Matrix::embedded(), thresholds, tier);
    return tier;
}

std::vector<std::string> figure_names(const verify::TierReport& tier)
{
    std::vector<std::string> out;
    for (const auto& figure : tier.figures)
        out.push_back(figure.name + (figure.threshold ? " >= " + std::to_string(*figure.threshold) : ""));
    return out;
}

const verify::Figure& figure(const verify::TierReport& tier, const std::string& name)
{
    for (const auto& each : tier.figures)
        if (each.name == name)
            return each;
    FAIL("no figure " + name);
    throw;
}

std::vector<std::string> held_findings(const verify::TierReport& tier)
{
    std::vector<std::string> out;
    for (const auto& finding : tier.findings)
        if (finding.code == "bandwidth" || finding.code == "gemm-throughput")
            out.push_back(std::string(verify::outcome_name(finding.verdict)) + " " + finding.message);
    return out;
}

} // namespace

TEST_CASE("an H100 at spec passes: the kit's findings as they are, figures and fractions of the spec", "[verify]")
{
    verify::TierReport tier = evaluate("gpu_h100_pass.json");
    CHECK(tier.passed());
    CHECK(tier.findings.size() == 8 + 3);
    CHECK(tier.findings[0].code == "cuda-driver");
    CHECK(figure_names(tier)
        == std::vector<std::string> { "gpu0_memory_bandwidth", "gpu0_fp32_fma", "gpu0_gemm_fp16", "gpu0_gemm_bf16",
            "gpu0_conv_fp16", "gpu0_bandwidth_fraction >= 0.800000", "gpu0_gemm_fp16_fraction >= 0.600000",
            "gpu0_gemm_bf16_fraction >= 0.600000" });
    CHECK(figure(tier, "gpu0_memory_bandwidth").value == 2900.5);
    CHECK(figure(tier, "gpu0_memory_bandwidth").unit == "GB/s");
    CHECK(figure(tier, "gpu0_bandwidth_fraction").value == Approx(2900.5 / 3350));
    CHECK(figure(tier, "gpu0_bandwidth_fraction").unit == "fraction");
    CHECK(figure(tier, "gpu0_gemm_fp16_fraction").value == Approx(700 / 989.4));
    CHECK(held_findings(tier)
        == std::vector<std::string> {
            "pass GPU 0 (NVIDIA H100 80GB HBM3): memory bandwidth 2900.5 GB/s is 0.866 of the 3350 GB/s spec, at or "
            "above the threshold 0.8",
            "pass GPU 0 (NVIDIA H100 80GB HBM3): FP16 GEMM throughput 700 TFLOPS is 0.707 of the 989.4 TFLOPS spec, at "
            "or above the threshold 0.6",
            "pass GPU 0 (NVIDIA H100 80GB HBM3): BF16 GEMM throughput 690 TFLOPS is 0.697 of the 989.4 TFLOPS spec, at "
            "or above the threshold 0.6" });
}

TEST_CASE("an H100 copying at 70% of its memory bandwidth fails the bandwidth finding", "[verify]")
{
    verify::TierReport tier = evaluate("gpu_h100_slow_memory.json");
    CHECK_FALSE(tier.passed());
    CHECK(held_findings(tier).front()
        == "fail GPU 0 (NVIDIA H100 80GB HBM3): memory bandwidth 2345 GB/s is 0.7 of the 3350 GB/s spec, under the "
           "threshold 0.8");
    CHECK(tier.count(Verdict::fail) == 1);
}

TEST_CASE("the lock's thresholds are the ones held to", "[verify]")
{
    lock::Thresholds thresholds { 0.5, 0.75 };
    verify::TierReport tier = evaluate("gpu_h100_slow_memory.json", thresholds);
    CHECK(held_findings(tier)
        == std::vector<std::string> {
            "pass GPU 0 (NVIDIA H100 80GB HBM3): memory bandwidth 2345 GB/s is 0.7 of the 3350 GB/s spec, at or above "
            "the threshold 0.5",
            "fail GPU 0 (NVIDIA H100 80GB HBM3): FP16 GEMM throughput 700 TFLOPS is 0.707 of the 989.4 TFLOPS spec, "
            "under the threshold 0.75",
            "fail GPU 0 (NVIDIA H100 80GB HBM3): BF16 GEMM throughput 690 TFLOPS is 0.697 of the 989.4 TFLOPS spec, "
            "under the threshold 0.75" });
    lock::Thresholds defaults; // held to when the image carries no lock that can be read
    CHECK(defaults.bandwidth_min_fraction == 0.8);
    CHECK(defaults.gemm_min_fraction == 0.6);
}

TEST_CASE(
    "a model without a peak in the matrix, or unknown to it, keeps its figure and skips the threshold", "[verify]")
{
    verify::TierReport tier = evaluate("gpu_two_devices_unknown.json");
    CHECK(tier.passed());
    CHECK(figure_names(tier)
        == std::vector<std::string> { "gpu0_memory_bandwidth", "gpu0_gemm_fp16", "gpu1_memory_bandwidth",
            "gpu0_bandwidth_fraction >= 0.800000" });
    CHECK(held_findings(tier)
        == std::vector<std::string> {
            "pass GPU 0 (NVIDIA GeForce RTX 4090): memory bandwidth 950 GB/s is 0.942 of the 1008 GB/s spec, at or "
            "above the threshold 0.8",
            "skip GPU 0 (NVIDIA GeForce RTX 4090): FP16 GEMM throughput 150 TFLOPS is reported as a figure only: the "
            "matrix has no dense FP16 tensor-core peak for this model",
            "skip GPU 1 (NVIDIA Imaginary X1): memory bandwidth 10 GB/s is reported as a figure only: the matrix does "
            "not know this model" });
}

TEST_CASE("a figure in another unit than the spec's is not compared with it", "[verify]")
{
    verify::TierReport tier { "gpu", {}, {}, 0 };
    verify::evaluate_kit_output(verify::parse_kit_output("/opt/dlenv/kit/gpu_tier.py", "gpu",
                                    R"({"kit": 1, "tier": "gpu", "findings": [],
        "devices": [{"index": 0, "name": "NVIDIA H100 PCIe", "compute_capability": "9.0", "multiprocessors": 114,
                     "memory_bytes": 85520809984}],
        "figures": [{"name": "memory_bandwidth", "device": 0, "value": 1900000, "unit": "MB/s"}]})"),
        matrix::Matrix::embedded(), {}, tier);
    CHECK(held_findings(tier)
        == std::vector<std::string> { "skip GPU 0 (NVIDIA H100 PCIe): memory bandwidth 1.9e+06 MB/s is reported as a "
                                      "figure only: the matrix's spec is in GB/s" });
}
