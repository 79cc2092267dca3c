#include "advise/job.h"
#include "core/error.h"

#include <catch2/catch.hpp>

using namespace dlenv;
using namespace dlenv::advise;

namespace {

// The error a request is refused with: "message | hint".
std::string refusal(const JobRequest& request)
{
    try {
        parse_job(request);
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        return e.message() + " | " + e.hint();
    }
    return "accepted";
}

} // namespace

TEST_CASE("parameter counts read with K, M, B or T, in either case, or as a plain number", "[advise]")
{
    CHECK(parse_parameter_count("7B") == 7e9);
    CHECK(parse_parameter_count("7b") == 7e9);
    CHECK(parse_parameter_count("350M") == 3.5e8);
    CHECK(parse_parameter_count("1.5T") == 1.5e12);
    CHECK(parse_parameter_count("25557032") == 25557032);
    for (const char* bad : { "", "B", "7X", "-7B", "7BB", "0", "7 B", "nanB" })
        CHECK_FALSE(parse_parameter_count(bad).has_value());
}

TEST_CASE("a bare 7B, 13B or 70B takes Llama-2's shape of that size, citing its config.json", "[advise]")
{
    Job job = parse_job({ .model_params = "70B", .task = "inference" });
    CHECK(job.model.parameters == 70e9);
    CHECK(job.model.name == "shape of Llama-2 70B");
    REQUIRE(job.model.transformer);
    CHECK(job.model.transformer->layers == 80);
    CHECK(job.model.transformer->hidden == 8192);
    CHECK(job.model.transformer->heads == 64);
    CHECK(job.model.transformer->kv_heads == 8);
    REQUIRE(job.model.shape_source);
    CHECK(job.model.shape_source->url == "https://huggingface.co/meta-llama/Llama-2-70b-hf/blob/main/config.json");

    Job other = parse_job({ .model_params = "6.7B", .task = "inference" });
    CHECK_FALSE(other.model.transformer);
    CHECK(other.model.name.empty());
}

TEST_CASE("a shape given on the command line replaces the known one, and --kv-heads defaults to --heads", "[advise]")
{
    Job job = parse_job({ .model_params = "7B", .task = "lora", .layers = 24, .hidden = 2048, .heads = 16 });
    REQUIRE(job.model.transformer);
    CHECK(job.model.transformer->layers == 24);
    CHECK(job.model.transformer->kv_heads == 16);
    CHECK_FALSE(job.model.shape_source);
    CHECK(job.model.name.empty());
}

TEST_CASE("defaults: bf16, AdamW, sequence 2048, batch 1, LoRA rank 16", "[advise]")
{
    Job job = parse_job({ .model = "resnet50", .task = "train" });
    CHECK(job.model.parameters == 25557032);
    CHECK(job.model.activations_per_sample == 11.1e6);
    CHECK(job.precision == Precision::bf16);
    CHECK(job.optimizer == Optimizer::adamw);
    CHECK(job.seq_len == 2048);
    CHECK(job.batch == 1);
    CHECK(job.lora_rank == 16);
}

TEST_CASE("bad input names the flag and shows a right spelling", "[advise]")
{
    CHECK(refusal({ .model_params = "7X", .task = "lora" })
        == "--model-params 7X: not a parameter count | write a number with B, M or T: --model-params 7B, "
           "--model-params 350M, --model-params 25557032");
    CHECK(refusal({ .model_params = "7B" })
        == "--task is missing | say what the job does: --task full-finetune, lora, qlora, inference or train");
    CHECK(refusal({ .model_params = "7B", .task = "pretrain" })
        == "--task pretrain: unknown value | use one of full-finetune, lora, qlora, inference or train");
    CHECK(refusal({ .model_params = "7B", .task = "lora", .precision = "int4" })
        == "--precision int4: unknown value | use one of fp32, fp16, bf16 or fp8");
    CHECK(refusal({ .model_params = "7B", .task = "lora", .optimizer = "lion" })
        == "--optimizer lion: unknown value | use one of adamw, sgd or adam8bit");
    CHECK(refusal({ .task = "lora" })
        == "the model's size is missing | give --model-params (--model-params 7B) or a known --model (--model "
           "llama-2-7b)");
    CHECK(refusal({ .model = "gpt-5", .task = "lora" })
        == "--model gpt-5: unknown model | known: llama-2-7b, llama-2-13b, llama-2-70b and resnet50; for another "
           "model give --model-params and its shape");
    CHECK(refusal({ .model_params = "7B", .task = "full-finetune", .precision = "fp8" })
        == "--precision fp8 is sized for --task inference only | FP8 training keeps 16- or 32-bit weights and "
           "computes each matrix product in FP8, so its memory is bf16's: use --precision bf16");
    CHECK(refusal({ .model_params = "7B", .task = "lora", .layers = 32, .hidden = 4096 })
        == "--heads is missing or 0 | a transformer's shape is --layers, --hidden and --heads together (--layers 32 "
           "--hidden 4096 --heads 32), with --kv-heads for grouped-query attention");
    CHECK(refusal({ .model_params = "7B", .task = "lora", .layers = 32, .hidden = 4096, .heads = 30 })
        == "--hidden 4096 is not a multiple of --heads 30 | each head has hidden / heads dimensions: give the "
           "config.json's hidden_size and num_attention_heads");
    CHECK(refusal({ .model_params = "7B", .task = "lora", .layers = 32, .hidden = 4096, .heads = 32, .kv_heads = 5 })
        == "--kv-heads 5 does not divide --heads 32 | give the config.json's num_key_value_heads");
    CHECK(refusal({ .model_params = "7B", .task = "lora", .batch = 0u })
        == "--batch 0: must be at least 1 | give a positive count: --batch 1");
}
