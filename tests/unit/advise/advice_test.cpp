#include "advise/advice.h"
#include "core/error.h"
#include "matrix/matrix.h"

#include <catch2/catch.hpp>

using namespace dlenv;
using namespace dlenv::advise;

namespace {

Advice advice_for(const JobRequest& request, const std::vector<std::string>& gpus)
{
    return advise::advise(matrix::Matrix::embedded(), parse_job(request), gpus);
}

} // namespace

TEST_CASE(
    "ZeRO's per-GPU memory: stage 1 divides the optimizer states, stage 2 also gradients, stage 3 all", "[advise]")
{
    auto e = estimate_memory(parse_job({ .model_params = "7B", .task = "full-finetune" }));
    double acts = 1493172224.0;
    CHECK(per_gpu_bytes(e, Sharding::none, 1, true) == 112e9 + acts);
    CHECK(per_gpu_bytes(e, Sharding::zero1, 4, true) == 14e9 + 14e9 + 84e9 / 4 + acts);
    CHECK(per_gpu_bytes(e, Sharding::zero2, 4, true) == 14e9 + 98e9 / 4 + acts);
    CHECK(per_gpu_bytes(e, Sharding::zero3, 4, true) == 112e9 / 4 + acts);
}

TEST_CASE("7B LoRA fits on one RTX 4090 with activation checkpointing: 15.63 of 24 GB", "[advise]")
{
    Advice a = advice_for({ .model_params = "7B", .task = "lora" }, { "RTX 4090" });
    REQUIRE(a.fits.size() == 1);
    const GpuFit& fit = a.fits[0];
    CHECK(fit.gpu->name == "NVIDIA GeForce RTX 4090");
    CHECK(fit.available == 1u);
    REQUIRE(fit.plan);
    CHECK(fit.plan->gpus == 1);
    CHECK(fit.plan->sharding == Sharding::none);
    CHECK(fit.plan->checkpointing);
    CHECK(fit.plan->per_gpu_bytes == 15627389952.0);
    CHECK(fit.fits());
    CHECK(a.fits_somewhere());
    REQUIRE(fit.host);
    CHECK(fit.host->cpu_cores == 8);
    CHECK(fit.host->ram_gb == 48);
    CHECK(fit.host->nvme_mb_s == 2000);
    CHECK_FALSE(fit.host->network_gbit_s);
    CHECK(fit.links.empty());
}

TEST_CASE("7B full fine-tune does not fit one RTX 4090: it takes five with ZeRO-3 and checkpointing", "[advise]")
{
    Advice a = advice_for({ .model_params = "7B", .task = "full-finetune" }, { "RTX 4090" });
    const GpuFit& fit = a.fits.at(0);
    REQUIRE(fit.plan);
    // 112 GB / 5 + 1.49 GB = 23.89 GB; four would need 29.49 GB each.
    CHECK(fit.plan->gpus == 5);
    CHECK(fit.plan->sharding == Sharding::zero3);
    CHECK(fit.plan->checkpointing);
    CHECK(fit.plan->per_gpu_bytes == 112e9 / 5 + 1493172224.0);
    CHECK_FALSE(fit.fits());
    CHECK_FALSE(a.fits_somewhere());
    CHECK(fit.on_available == 112e9 + 1493172224.0);
    CHECK(fit.host->ram_gb == 240);
    CHECK(fit.host->cpu_cores == 40);
    CHECK(fit.links
        == "5 GPUs exchange zero3 traffic every step, so NVLink matters: the matrix does not record whether NVIDIA "
           "GeForce RTX 4090 has it; `nvidia-smi topo -m` (read by `dlenv doctor`) shows the links");
    REQUIRE(a.rules.size() == 1);
    CHECK(a.rules[0].claim == "full fine-tuning takes about 6 bytes per parameter (\"a 7B model in 40 GB\")");
    CHECK(a.rules[0].arithmetic
        == "this job: 16 bytes per parameter of weights, gradients and optimizer states = 112.00 GB + activations "
           "30.60 GB (1.49 GB checkpointed)");
}

TEST_CASE("a count before the model says how many are there: five RTX 4090s hold the 7B full fine-tune", "[advise]")
{
    Advice a = advice_for({ .model_params = "7B", .task = "full-finetune" }, { "5x RTX 4090" });
    CHECK(a.fits.at(0).available == 5u);
    CHECK(a.fits.at(0).fits());
}

TEST_CASE("on H100 80GB the 7B full fine-tune takes two GPUs with ZeRO stage 1 and checkpointing", "[advise]")
{
    Advice a = advice_for({ .model_params = "7B", .task = "full-finetune" }, { "H100 SXM5" });
    const Plan& plan = *a.fits.at(0).plan;
    CHECK(plan.gpus == 2);
    CHECK(plan.sharding == Sharding::zero1);
    CHECK(plan.checkpointing);
    CHECK(plan.per_gpu_bytes == 14e9 + 14e9 + 42e9 + 1493172224.0);
}

TEST_CASE("70B inference: fp16 needs two 80 GB GPUs in tensor parallel, fp8 fits one", "[advise]")
{
    Advice fp16 = advice_for({ .model_params = "70B", .task = "inference", .precision = "fp16" }, { "H100 SXM5" });
    const Plan& two = *fp16.fits.at(0).plan;
    CHECK(two.gpus == 2);
    CHECK(two.sharding == Sharding::tensor_parallel);
    CHECK(two.per_gpu_bytes == 140671088640.0 / 2);
    CHECK_FALSE(fp16.fits_somewhere());

    Advice fp8 = advice_for({ .model_params = "70B", .task = "inference", .precision = "fp8" }, { "H100 SXM5" });
    CHECK(fp8.fits.at(0).plan->gpus == 1);
    CHECK(fp8.fits_somewhere());
}

TEST_CASE("ResNet-50 batch 128 in bf16 fits one RTX 4090", "[advise]")
{
    Advice a = advice_for({ .model = "resnet50", .task = "train", .batch = 128u }, { "RTX 4090" });
    CHECK(a.fits.at(0).plan->gpus == 1);
    CHECK(a.fits.at(0).plan->per_gpu_bytes == 25557032.0 * 16 + 11.1e6 * 128 * 2);
    CHECK(a.fits_somewhere());
}

TEST_CASE(
    "the host is sized for every GPU there: four RTX 4090s want 192 GB of RAM though one runs the job", "[advise]")
{
    Advice a = advice_for({ .model = "resnet50", .task = "train", .batch = 128u }, { "4x RTX 4090" });
    const GpuFit& fit = a.fits.at(0);
    CHECK(fit.plan->gpus == 1);
    CHECK(fit.host->ram_gb == 192);
    CHECK(fit.host->cpu_cores == 32);
    CHECK_FALSE(fit.on_available);
}

TEST_CASE("four 24 GB GPUs ask for 32 cores and 192 GB of RAM, and past 8 GPUs nodes with 10 Gb/s and RDMA", "[advise]")
{
    HostNeeds four = host_needs(4, 24);
    CHECK(four.cpu_cores == 32);
    CHECK(four.ram_gb == 192);
    CHECK(four.nodes == 1);
    CHECK_FALSE(four.rdma);
    HostNeeds sixteen = host_needs(16, 80);
    CHECK(sixteen.nodes == 2);
    CHECK(sixteen.gpus_per_node == 8);
    CHECK(sixteen.cpu_cores == 64);
    CHECK(sixteen.ram_gb == 1280);
    CHECK(sixteen.network_gbit_s == 10.0);
    CHECK(sixteen.rdma);
}

TEST_CASE(
    "a family stands for each of its variants; with no GPU named, the matrix is ranked fewest GPUs first", "[advise]")
{
    Advice family = advice_for({ .model_params = "7B", .task = "full-finetune" }, { "H100" });
    CHECK(family.fits.size() == 4); // H100 80GB HBM3 (SXM5), H100 NVL, H100 PCIe and the 94 GB SXM5 "NVIDIA H100"
    Advice all = advice_for({ .model_params = "7B", .task = "lora" }, {});
    CHECK_FALSE(all.gpus_named);
    REQUIRE(all.fits.size() > 10);
    CHECK(all.fits.front().plan->gpus == 1);
    CHECK(all.fits_somewhere());
    for (std::size_t i = 1; i < all.fits.size(); ++i)
        if (all.fits[i].plan && all.fits[i - 1].plan)
            CHECK(all.fits[i - 1].plan->gpus <= all.fits[i].plan->gpus);
}

TEST_CASE("an unknown GPU or a bare compute capability is bad input", "[advise]")
{
    auto job = parse_job({ .model_params = "7B", .task = "lora" });
    CHECK_THROWS_WITH(
        advise::advise(matrix::Matrix::embedded(), job, { "RTX 9999" }), Catch::StartsWith("unknown GPU 'RTX 9999'"));
    CHECK_THROWS_WITH(advise::advise(matrix::Matrix::embedded(), job, { "sm_89" }),
        "--gpus sm_89: a compute capability, not a model");
    CHECK_THROWS_WITH(advise::advise(matrix::Matrix::embedded(), job, { "0x RTX 4090" }),
        "--gpus 0x RTX 4090: a count of 0, or past 9999");
    CHECK_THROWS_WITH(advise::advise(matrix::Matrix::embedded(), job, { "99999999999999999999x RTX 4090" }),
        "--gpus 99999999999999999999x RTX 4090: a count of 0, or past 9999");
}
