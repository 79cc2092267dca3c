#include "verify/acceptance_evaluation.h"
#include "verify/acceptance_tier.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

// The acceptance kit's output as kit/dlenv_kit/acceptance.py writes it, with `figures`.
verify::KitOutput kit_output(const std::vector<std::pair<std::string, double>>& figures, bool gpu = false)
{
    verify::KitOutput out;
    out.tier = "acceptance";
    if (gpu) {
        out.devices.push_back({ 0, "NVIDIA H100 80GB HBM3", "9.0", 132, 85520809984 });
        out.figures.push_back({ "utilization", 0, 0, "fraction" });
    }
    out.findings.push_back({ "acceptance-train", Verdict::ok, "trained resnet50" });
    for (const auto& [name, value] : figures)
        out.figures.push_back({ name, std::nullopt, value, "" });
    return out;
}

// A CPU run of two cores and 2 workers: each step 1.2 s, `wait` s of it waiting for data.
verify::KitOutput cpu_run(double wait, double read_ms, double decode_ms)
{
    return kit_output({ { "images_per_second", 6.5 }, { "data_wait_fraction", wait / 1.2 }, { "step_seconds", 1.2 },
        { "data_wait_seconds", wait }, { "read_megabytes_per_second", 0.0425 },
        { "read_milliseconds_per_image", read_ms }, { "decode_milliseconds_per_image", decode_ms },
        { "num_workers", 2 }, { "batch_size", 8 }, { "cpu_cores", 2 } });
}

verify::AcceptanceTargets targets(std::uint32_t workers = 2)
{
    resolve::Acceptance settings;
    settings.num_workers = workers;
    return { settings, "/srv/imagenet" };
}

verify::TierReport evaluate(const verify::KitOutput& output, bool gpus_injected = false)
{
    verify::TierReport tier { "acceptance", {}, {}, 0 };
    verify::evaluate_acceptance(output, targets(), gpus_injected, tier);
    return tier;
}

const Finding& finding(const verify::TierReport& tier, const std::string& code)
{
    for (const auto& each : tier.findings)
        if (each.code == code)
            return each;
    FAIL("no finding " + code);
    throw;
}

} // namespace

TEST_CASE("acceptance: a data wait under 0.2 of the step passes, its figure held to the limit", "[verify]")
{
    verify::TierReport tier = evaluate(cpu_run(0.06, 0.2, 2.5));
    CHECK(tier.passed());
    CHECK(finding(tier, "data-wait").message
        == "data loading takes 0.05 of each step (0.06 s of 1.2 s), under the limit 0.2");
    CHECK(tier.figures[1].name == "data_wait_fraction");
    CHECK(tier.figures[1].threshold == 0.2);
    CHECK(tier.findings.size() == 2); // no GPU sampled, none injected: no gpu-utilization finding
}

TEST_CASE("acceptance: slow reading fails the data wait, storage first in the advice", "[verify]")
{
    verify::TierReport tier = evaluate(cpu_run(0.9, 188, 2.5));
    CHECK_FALSE(tier.passed());
    CHECK(finding(tier, "data-wait").message
        == "data loading takes 0.75 of each step (0.9 s of 1.2 s), over the limit 0.2: the DataLoader's 2 workers read "
           "each image in 188 ms (0.0425 MB/s) and decode it in 2.5 ms, so reading is the slower part; look at the "
           "read "
           "speed of the data dir /srv/imagenet (0.0425 MB/s per worker here; local NVMe reads 2 GB/s and more), then "
           "the CPU cores per GPU (2 cores here and no GPU; 8 or more per GPU is the baseline) and num_workers (2; "
           "set it in the profile's validation.acceptance, up to the cores per GPU)");
}

TEST_CASE("acceptance: slow decoding fails the data wait, CPU cores and workers first", "[verify]")
{
    verify::KitOutput output = cpu_run(0.3, 0.5, 40);
    output.devices.push_back({ 0, "NVIDIA H100 80GB HBM3", "9.0", 132, 85520809984 });
    output.devices.push_back({ 1, "NVIDIA H100 80GB HBM3", "9.0", 132, 85520809984 });
    verify::TierReport tier = evaluate(output, true);
    CHECK(finding(tier, "data-wait").message
        == "data loading takes 0.25 of each step (0.3 s of 1.2 s), over the limit 0.2: the DataLoader's 2 workers read "
           "each image in 0.5 ms (0.0425 MB/s) and decode it in 40 ms, so decoding is the slower part; look at the CPU "
           "cores per GPU (1 here: 2 cores for 2 GPU(s); 8 or more is the baseline) and num_workers (2; "
           "set it in the profile's validation.acceptance, up to the cores per GPU), then the read speed of the data "
           "dir /srv/imagenet (0.0425 MB/s per worker here; local NVMe reads 2 GB/s and more)");
    CHECK(finding(tier, "gpu-utilization").message
        == "the GPUs were injected but none was sampled: the image's framework saw no GPU (a CPU-only build) or NVML "
           "could not be read (see utilization-sampling)");
}

TEST_CASE("acceptance: GPU utilisation held to 0.85, the advice telling a starved GPU from an idle job", "[verify]")
{
    auto with_busy = [](double busy, double wait) {
        verify::KitOutput output = kit_output({ { "data_wait_fraction", wait }, { "step_seconds", 0.2 },
                                                  { "data_wait_seconds", 0.2 * wait }, { "cpu_cores", 16 } },
            true);
        output.figures[0].value = busy;
        return evaluate(output, true);
    };
    verify::TierReport busy = with_busy(0.97, 0.02);
    CHECK(busy.passed());
    CHECK(finding(busy, "gpu-utilization").message
        == "GPU 0 (NVIDIA H100 80GB HBM3) was busy 0.97 of the time, at or above 0.85");
    CHECK(busy.figures[0].name == "gpu0_utilization");
    CHECK(busy.figures[0].threshold == 0.85);

    verify::TierReport idle = with_busy(0.62, 0.05);
    CHECK(finding(idle, "gpu-utilization").message
        == "GPU 0 (NVIDIA H100 80GB HBM3) was busy 0.62 of the time, under 0.85: data arrives in time (0.05 of each "
           "step), so the job itself leaves the GPU idle: raise the batch size (128 now, "
           "--batch-size) and see that the GPU is not throttled (nvidia-smi -q -d PERFORMANCE)");
    verify::TierReport starved = with_busy(0.4, 0.55);
    CHECK(finding(starved, "gpu-utilization").message
        == "GPU 0 (NVIDIA H100 80GB HBM3) was busy 0.4 of the time, under 0.85: it waits for data (see data-wait): "
           "fix the data loading first");
    CHECK(finding(starved, "data-wait").verdict == Verdict::fail);
}

TEST_CASE("acceptance: a job that did not run gives the kit's findings only", "[verify]")
{
    verify::KitOutput output;
    output.tier = "acceptance";
    output.findings.push_back({ "acceptance-train", Verdict::fail, "the kit's check raised RuntimeError" });
    verify::TierReport tier = evaluate(output, true);
    REQUIRE(tier.findings.size() == 1);
    CHECK(tier.findings[0].code == "acceptance-train");
}

TEST_CASE("acceptance: /dev/shm holds every batch in flight with half again to spare", "[verify]")
{
    resolve::Acceptance settings; // ResNet-50 at batch 128, 224x224, 8 workers prefetching 2
    CHECK(verify::acceptance_shm_kib(settings) == 1.5 * 4 * 3 * 224 * 224 * 128 * (8 * 2 + 2) / 1024);
    settings.batch_size = 8;
    settings.image_size = 64;
    settings.num_workers = 2;
    CHECK(verify::acceptance_shm_kib(settings) == 65536); // never under the runtime's usual 64 MiB
}

TEST_CASE("acceptance: the job runs with --acceptance's settings, else the lock's, else the defaults", "[verify]")
{
    resolve::Acceptance locked;
    locked.model = "resnet18";
    locked.num_workers = 4;
    resolve::Acceptance given;
    given.model = "vit_b_16";
    verify::AcceptanceOptions options;
    CHECK(verify::acceptance_settings(options, std::nullopt).model == "resnet50");
    CHECK(verify::acceptance_settings(options, locked).model == "resnet18");
    CHECK(verify::acceptance_settings(options, locked).num_workers == 4);
    options.settings = given;
    CHECK(verify::acceptance_settings(options, locked).model == "vit_b_16");
    CHECK(verify::acceptance_settings(options, locked).num_workers == 8); // the file's whole, not merged
    options.batch_size = 32;
    CHECK(verify::acceptance_settings(options, locked).batch_size == 32);
    options.settings.reset();
    CHECK(verify::acceptance_settings(options, locked).batch_size == 32);
    CHECK(verify::acceptance_settings(options, locked).model == "resnet18");
}
