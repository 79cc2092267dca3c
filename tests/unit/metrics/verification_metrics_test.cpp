#include "metrics/verification_metrics.h"

#include "core/error.h"
#include "verify/report.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

const Digest k_image = Digest::from_hex(std::string(64, 'a'));

// A gpu tier as verify records it: two H100s measured, GPU 1 under the bandwidth threshold.
store::TierVerification gpu_tier()
{
    verify::Report report;
    report.runtime = "runc";
    report.time = "2026-11-29T18:04:50Z";
    report.host
        = { "6.1.0-27-amd64", DriverVersion::parse("550.54.15"), { "NVIDIA H100 80GB HBM3", "NVIDIA H100 80GB HBM3" } };
    report.thresholds = lock::Thresholds { 0.8, 0.6 };
    verify::TierReport tier { "gpu",
        { { "bandwidth", Verdict::ok, "GPU 0" }, { "bandwidth", Verdict::fail, "GPU 1" },
            { "gemm-throughput", Verdict::ok, "GPU 0" }, { "nvrtc", Verdict::unknown, "skipped" } },
        { { "gpu0_memory_bandwidth", 2900.5, "GB/s", std::nullopt },
            { "gpu0_bandwidth_fraction", 0.866, "fraction", 0.8 }, { "gpu0_gemm_fp16_fraction", 0.71, "fraction", 0.6 },
            { "gpu0_gemm_bf16_fraction", 0.705, "fraction", 0.6 },
            { "gpu1_bandwidth_fraction", 0.5, "fraction", 0.8 } },
        12.25 };
    return { "gpu", false, report.time, report.tier_json(tier) };
}

store::TierVerification static_tier()
{
    verify::Report report;
    report.runtime = "bwrap";
    report.time = "2026-11-29T18:00:00Z";
    report.host = { "6.1.0-27-amd64", std::nullopt, {} };
    verify::TierReport tier { "static", { { "file-sha256", Verdict::ok, "ok" } }, {}, 1.5 };
    return { "static", true, report.time, report.tier_json(tier) };
}

} // namespace

TEST_CASE("verification records become pass/fail, time, checks, host and fractions of spec per GPU", "[metrics]")
{
    store::Verification record { k_image, { { "gpu", gpu_tier() }, { "static", static_tier() } } };
    std::string d = "digest=\"sha256:" + std::string(64, 'a') + "\"";
    CHECK(metrics::render(metrics::verification_families({ record }))
        == "# HELP dlenv_verification_passed 1 when the latest run of the tier on the image passed, else 0.\n"
           "# TYPE dlenv_verification_passed gauge\n"
           "dlenv_verification_passed{"
            + d + ",tier=\"gpu\"} 0\ndlenv_verification_passed{" + d
            + ",tier=\"static\"} 1\n"
              "# HELP dlenv_verification_timestamp_seconds When the latest run of the tier on the image ran.\n"
              "# TYPE dlenv_verification_timestamp_seconds gauge\n"
              "dlenv_verification_timestamp_seconds{"
            + d + ",tier=\"gpu\"} 1795975490\ndlenv_verification_timestamp_seconds{" + d
            + ",tier=\"static\"} 1795975200\n"
              "# HELP dlenv_verification_duration_seconds How long the latest run of the tier took.\n"
              "# TYPE dlenv_verification_duration_seconds gauge\n"
              "dlenv_verification_duration_seconds{"
            + d + ",tier=\"gpu\"} 12.25\ndlenv_verification_duration_seconds{" + d
            + ",tier=\"static\"} 1.5\n"
              "# HELP dlenv_verification_checks The findings of the latest run of the tier, by outcome.\n"
              "# TYPE dlenv_verification_checks gauge\n"
              "dlenv_verification_checks{"
            + d + ",tier=\"gpu\",outcome=\"pass\"} 2\ndlenv_verification_checks{" + d
            + ",tier=\"gpu\",outcome=\"fail\"} 1\ndlenv_verification_checks{" + d
            + ",tier=\"gpu\",outcome=\"skip\"} 1\ndlenv_verification_checks{" + d
            + ",tier=\"gpu\",outcome=\"warn\"} 0\ndlenv_verification_checks{" + d
            + ",tier=\"static\",outcome=\"pass\"} 1\ndlenv_verification_checks{" + d
            + ",tier=\"static\",outcome=\"fail\"} 0\ndlenv_verification_checks{" + d
            + ",tier=\"static\",outcome=\"skip\"} 0\ndlenv_verification_checks{" + d
            + ",tier=\"static\",outcome=\"warn\"} 0\n"
              "# HELP dlenv_verification_host_info The host the latest run of the tier ran on, value 1.\n"
              "# TYPE dlenv_verification_host_info gauge\n"
              "dlenv_verification_host_info{"
            + d
            + ",tier=\"gpu\",kernel=\"6.1.0-27-amd64\",driver=\"550.54.15\",runtime=\"runc\"} 1\n"
              "dlenv_verification_host_info{"
            + d
            + ",tier=\"static\",kernel=\"6.1.0-27-amd64\",driver=\"\",runtime=\"bwrap\"} 1\n"
              "# HELP dlenv_verification_memory_bandwidth_ratio Measured memory bandwidth of the GPU as a "
              "fraction of the matrix's spec.\n"
              "# TYPE dlenv_verification_memory_bandwidth_ratio gauge\n"
              "dlenv_verification_memory_bandwidth_ratio{"
            + d
            + ",tier=\"gpu\",gpu_index=\"0\",gpu=\"NVIDIA H100 80GB HBM3\"} 0.866\n"
              "dlenv_verification_memory_bandwidth_ratio{"
            + d
            + ",tier=\"gpu\",gpu_index=\"1\",gpu=\"NVIDIA H100 80GB HBM3\"} 0.5\n"
              "# HELP dlenv_verification_gemm_ratio Measured GEMM throughput of the GPU as a fraction of the "
              "matrix's dense tensor-core peak.\n"
              "# TYPE dlenv_verification_gemm_ratio gauge\n"
              "dlenv_verification_gemm_ratio{"
            + d
            + ",tier=\"gpu\",gpu_index=\"0\",gpu=\"NVIDIA H100 80GB HBM3\",precision=\"fp16\"} 0.71\n"
              "dlenv_verification_gemm_ratio{"
            + d
            + ",tier=\"gpu\",gpu_index=\"0\",gpu=\"NVIDIA H100 80GB HBM3\",precision=\"bf16\"} 0.705\n"
              "# HELP dlenv_verification_memory_bandwidth_min_ratio The fraction of the spec's memory bandwidth "
              "the lock requires.\n"
              "# TYPE dlenv_verification_memory_bandwidth_min_ratio gauge\n"
              "dlenv_verification_memory_bandwidth_min_ratio{"
            + d
            + ",tier=\"gpu\"} 0.8\n"
              "# HELP dlenv_verification_gemm_min_ratio The fraction of the spec's dense tensor-core GEMM peak the "
              "lock requires.\n"
              "# TYPE dlenv_verification_gemm_min_ratio gauge\n"
              "dlenv_verification_gemm_min_ratio{"
            + d + ",tier=\"gpu\"} 0.6\n");
}

TEST_CASE("no records give no samples", "[metrics]")
{
    CHECK(metrics::render(metrics::verification_families({})).empty());
}

TEST_CASE("a figure of the wrong type in a record is refused naming the image, tier and field", "[metrics]")
{
    store::TierVerification tier = gpu_tier();
    tier.report["figures"][1]["value"] = "0.866";
    store::Verification record { k_image, { { "gpu", tier } } };
    try {
        metrics::verification_families({ record });
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(std::string(e.what())
            == "verification record of sha256:" + std::string(64, 'a')
                + ", tier gpu: field figures[].value must be a number");
        CHECK(e.hint() == "the verification record is damaged; run `dlenv verify` on the image again");
    }
}

TEST_CASE("an acceptance record gives utilisation per GPU, the data wait, images/s and DDP scaling", "[metrics]")
{
    verify::Report report;
    report.runtime = "runc";
    report.time = "2026-11-29T18:10:00Z";
    report.host = { "6.1.0-27-amd64", DriverVersion::parse("550.54.15"), { "NVIDIA A100-SXM4-80GB" } };
    verify::TierReport tier { "acceptance", { { "data-wait", Verdict::ok, "data wait" } },
        { { "images_per_second", 2480.5, "images/s", std::nullopt }, { "data_wait_fraction", 0.061, "fraction", 0.2 },
            { "step_seconds", 0.0516, "s", std::nullopt }, { "gpu0_utilization", 0.93, "fraction", 0.85 },
            { "ddp_scaling_efficiency", 0.91, "fraction", std::nullopt } },
        61.0 };
    store::Verification record { k_image,
        { { "acceptance", { "acceptance", true, report.time, report.tier_json(tier) } } } };
    std::string d = "digest=\"sha256:" + std::string(64, 'a') + "\",tier=\"acceptance\"";
    std::string text = metrics::render(metrics::verification_families({ record }));
    std::string acceptance;
    for (std::size_t start = 0, end; start < text.size(); start = end + 1) {
        end = text.find('\n', start);
        std::string line = text.substr(start, end - start);
        for (const char* name : { "dlenv_verification_gpu_utilization_ratio", "dlenv_verification_data_wait_ratio",
                 "dlenv_verification_training_images_per_second", "dlenv_verification_ddp_scaling_efficiency_ratio" })
            if (line.starts_with(name) || line.starts_with(std::string("# TYPE ") + name))
                acceptance += line + "\n";
    }
    CHECK(acceptance
        == "# TYPE dlenv_verification_gpu_utilization_ratio gauge\n"
           "dlenv_verification_gpu_utilization_ratio{"
            + d
            + ",gpu_index=\"0\",gpu=\"NVIDIA A100-SXM4-80GB\"} 0.93\n"
              "# TYPE dlenv_verification_data_wait_ratio gauge\n"
              "dlenv_verification_data_wait_ratio{"
            + d
            + "} 0.061\n"
              "# TYPE dlenv_verification_training_images_per_second gauge\n"
              "dlenv_verification_training_images_per_second{"
            + d
            + "} 2480.5\n"
              "# TYPE dlenv_verification_ddp_scaling_efficiency_ratio gauge\n"
              "dlenv_verification_ddp_scaling_efficiency_ratio{"
            + d + "} 0.91\n");
}
