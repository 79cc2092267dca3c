#include "metrics/doctor_metrics.h"

#include <catch2/catch.hpp>

using namespace dlenv;

TEST_CASE("doctor findings become verdict state sets and measurements in base units", "[metrics]")
{
    std::vector<Finding> findings = {
        { .code = "gpu", .verdict = Verdict::ok, .value = "NVIDIA H100 80GB HBM3", .measured = 2, .unit = "GPUs" },
        { .code = "gpu", .verdict = Verdict::warn, .value = "NVIDIA A2", .measured = 1, .unit = "GPUs" },
        { .code = "ram_vs_gpu_memory", .verdict = Verdict::fail, .measured = 503, .unit = "GiB" },
        { .code = "data_read_speed", .verdict = Verdict::ok, .measured = 2450.5, .unit = "MB/s" },
        { .code = "gpu_temperature",
            .verdict = Verdict::ok,
            .subject = "GPU 0 (NVIDIA H100 80GB HBM3)",
            .measured = 41,
            .unit = "C" },
        { .code = "network_speed", .verdict = Verdict::unknown, .measured = 25, .unit = "Gb/s" },
        { .code = "nvlink", .verdict = Verdict::unknown },
    };
    std::string text = metrics::render(metrics::doctor_families(findings));
    auto states = [](const std::string& labels, const std::string& reached) {
        std::string out;
        for (std::string verdict : { "unknown", "ok", "warn", "fail" })
            out += "dlenv_doctor_check{" + labels + ",verdict=\"" + verdict + "\"} " + (verdict == reached ? "1" : "0")
                + "\n";
        return out;
    };
    CHECK(text
        == "# HELP dlenv_doctor_verdict 1 for the worst verdict of the doctor's checks, 0 for the others.\n"
           "# TYPE dlenv_doctor_verdict gauge\n"
           "dlenv_doctor_verdict{verdict=\"unknown\"} 0\n"
           "dlenv_doctor_verdict{verdict=\"ok\"} 0\n"
           "dlenv_doctor_verdict{verdict=\"warn\"} 0\n"
           "dlenv_doctor_verdict{verdict=\"fail\"} 1\n"
           "# HELP dlenv_doctor_check 1 for the verdict the doctor's check reached on this machine, 0 for the "
           "other verdicts.\n"
           "# TYPE dlenv_doctor_check gauge\n"
            + states("check=\"gpu\",subject=\"NVIDIA H100 80GB HBM3\"", "ok")
            + states("check=\"gpu\",subject=\"NVIDIA A2\"", "warn") + states("check=\"ram_vs_gpu_memory\"", "fail")
            + states("check=\"data_read_speed\"", "ok")
            + states("check=\"gpu_temperature\",subject=\"GPU 0 (NVIDIA H100 80GB HBM3)\"", "ok")
            + states("check=\"network_speed\"", "unknown") + states("check=\"nvlink\"", "unknown")
            + "# HELP dlenv_doctor_measured_gpus What the doctor's check measured, in GPUs.\n"
              "# TYPE dlenv_doctor_measured_gpus gauge\n"
              "dlenv_doctor_measured_gpus{check=\"gpu\",subject=\"NVIDIA H100 80GB HBM3\"} 2\n"
              "dlenv_doctor_measured_gpus{check=\"gpu\",subject=\"NVIDIA A2\"} 1\n"
              "# HELP dlenv_doctor_measured_bytes What the doctor's check measured, in bytes.\n"
              "# TYPE dlenv_doctor_measured_bytes gauge\n"
              "dlenv_doctor_measured_bytes{check=\"ram_vs_gpu_memory\"} 540092137472\n"
              "# HELP dlenv_doctor_measured_bytes_per_second What the doctor's check measured, in bytes per "
              "second.\n"
              "# TYPE dlenv_doctor_measured_bytes_per_second gauge\n"
              "dlenv_doctor_measured_bytes_per_second{check=\"data_read_speed\"} 2450500000\n"
              "dlenv_doctor_measured_bytes_per_second{check=\"network_speed\"} 3125000000\n"
              "# HELP dlenv_doctor_measured_celsius What the doctor's check measured, in degrees Celsius.\n"
              "# TYPE dlenv_doctor_measured_celsius gauge\n"
              "dlenv_doctor_measured_celsius{check=\"gpu_temperature\",subject=\"GPU 0 (NVIDIA H100 80GB HBM3)\"} "
              "41\n");
}

TEST_CASE("no findings leave only the overall verdict, ok", "[metrics]")
{
    CHECK(metrics::render(metrics::doctor_families({}))
        == "# HELP dlenv_doctor_verdict 1 for the worst verdict of the doctor's checks, 0 for the others.\n"
           "# TYPE dlenv_doctor_verdict gauge\n"
           "dlenv_doctor_verdict{verdict=\"unknown\"} 0\n"
           "dlenv_doctor_verdict{verdict=\"ok\"} 1\n"
           "dlenv_doctor_verdict{verdict=\"warn\"} 0\n"
           "dlenv_doctor_verdict{verdict=\"fail\"} 0\n");
}
