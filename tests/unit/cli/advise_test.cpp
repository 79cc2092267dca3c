#include "support/run_dlenv.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using dlenv::testing::error_of;
using dlenv::testing::run_dlenv;

TEST_CASE("advise: 7B LoRA fits on one RTX 4090, with the figures, exit 0", "[cli][advise]")
{
    auto r = run_dlenv({ "advise", "--model-params", "7B", "--task", "lora", "--gpus", "RTX 4090" });
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("fits on the GPUs given\n  fits     1 x NVIDIA GeForce RTX 4090 (24 GB)\n"));
    CHECK_THAT(r.out,
        Catch::Contains("needs 1 GPU, no sharding, activation checkpointing: 15.63 GB per GPU\n"
                        "           host for 1 GPU: >= 8 CPU cores, >= 48 GB RAM, NVMe reading >= 2000 MB/s [5]\n"));
    CHECK_THAT(r.out,
        Catch::Contains(
            "  weights (frozen)                                14.00  7B parameters x 2 bytes (bf16) [2]\n"));
    CHECK_THAT(r.out, Catch::Contains("  total 44.74 GB, 15.63 GB with activation checkpointing\n"));
    CHECK_THAT(r.out,
        Catch::Contains("[4] Korthikanti et al. 2022, Reducing Activation Recomputation in Large "
                        "Transformer Models, §4.1 eq. 1 and §5 https://arxiv.org/abs/2205.05198\n"));
}

TEST_CASE("advise: 7B full fine-tune on one RTX 4090 says what it takes and why, exit 1", "[cli][advise]")
{
    auto r = run_dlenv({ "advise", "--model-params", "7B", "--task", "full-finetune", "--gpus", "RTX 4090" });
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.out,
        Catch::Contains("does not fit on the GPUs given\n  no fit   1 x NVIDIA GeForce RTX 4090 (24 GB)\n"
                        "           on 1: at least 113.49 GB per GPU, more than its 24 GB\n"
                        "           needs 5 GPUs, ZeRO stage 3 / FSDP FULL_SHARD (everything sharded), "
                        "activation checkpointing: 23.89 GB per GPU\n"));
    CHECK_THAT(r.out,
        Catch::Contains("optimizer states (adamw)                        84.00  7B parameters x 12 bytes "
                        "(fp32 weight copy 4 + momentum 4 + variance 4) [2]\n"));
    CHECK_THAT(r.out, Catch::Contains("so NVLink matters"));
    CHECK_THAT(r.out,
        Catch::Contains("it holds with 16-bit weights and gradients kept without an fp32 copy, 8-bit "
                        "Adam states (2 + 2 + 2 = 6 bytes per parameter) and activation checkpointing"));
}

TEST_CASE("advise --json: the terms, the plan and the host as data", "[cli][advise]")
{
    auto r = run_dlenv({ "advise", "--model-params", "70B", "--task", "inference", "--precision", "fp16", "--gpus",
        "2x H100 SXM5", "--json" });
    CHECK(r.exit_code == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("format") == "dlenv.advise/v1");
    CHECK(j.at("fits") == true);
    CHECK(j.at("memory").at("terms").at(0).at("bytes") == 140e9);
    CHECK(j.at("memory").at("terms").at(1).at("name") == "KV cache");
    const auto& gpu = j.at("gpus").at(0);
    CHECK(gpu.at("name") == "NVIDIA H100 80GB HBM3");
    CHECK(gpu.at("plan").at("gpus") == 2);
    CHECK(gpu.at("plan").at("sharding") == "tensor_parallel");
    CHECK(gpu.at("host").at("ram_gb") == 320.0);
    CHECK(gpu.at("host").at("cpu_cores") == 16);
}

TEST_CASE("advise: bad input is exit 2, naming the flag and the fix", "[cli][advise]")
{
    auto r = run_dlenv({ "advise", "--model-params", "7X", "--task", "lora", "--json" });
    CHECK(r.exit_code == 2);
    CHECK(error_of(r)
        == "--model-params 7X: not a parameter count | write a number with B, M or T: --model-params 7B, "
           "--model-params 350M, --model-params 25557032");
    auto gpu = run_dlenv({ "advise", "--model-params", "7B", "--task", "lora", "--gpus", "RTX 9999", "--json" });
    CHECK(gpu.exit_code == 2);
}
