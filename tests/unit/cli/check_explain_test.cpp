#include "support/run_dlenv.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using dlenv::testing::run_dlenv;

namespace {

constexpr const char* k_rn_131_title = "NVIDIA CUDA Toolkit 13.1 Release Notes, sec. 2.2 'CUDA Driver' (Table 3 'CUDA "
                                       "Toolkit and Corresponding Driver Versions' + minor-version table)";
constexpr const char* k_rn_131_url
    = "https://docs.nvidia.com/cuda/archive/13.1.0/cuda-toolkit-release-notes/index.html";

} // namespace

TEST_CASE("check --explain prints each row the answer rests on with its facts, sources and confidence", "[cli]")
{
    auto r = run_dlenv({ "check", "--cuda", "12.1", "--explain" });
    CHECK(r.exit_code == 0);
    CHECK(r.out
        == std::string("ok: CUDA 12.1 works\n"
                       "rows used (1):\n"
                       "  cuda.json toolkits[version=12.1.0] (confirmed)\n"
                       "    name: 12.1 GA\n"
                       "    driver_linux: 530.30.02\n"
                       "    source CUDA_RN_131: ")
            + k_rn_131_title + " <" + k_rn_131_url + ">\n");
}

TEST_CASE("check --explain --json adds the rows to the report", "[cli]")
{
    auto r = run_dlenv({ "check", "--cuda", "12.1", "--explain", "--json" });
    CHECK(r.exit_code == 0);
    auto rows = nlohmann::json::parse(r.out).at("rows");
    CHECK(rows
        == nlohmann::json::parse(std::string(R"([{"confidence": "confirmed",
            "facts": {"driver_linux": "530.30.02", "name": "12.1 GA"}, "file": "cuda.json",
            "key": "toolkits[version=12.1.0]", "sources": [{"key": "CUDA_RN_131", "title": ")")
            + k_rn_131_title + R"(", "url": ")" + k_rn_131_url + R"("}]}])"));
}

TEST_CASE("check --explain of a torch build on a GPU names its line, variant, GPU and architecture rows", "[cli]")
{
    auto r = run_dlenv({ "check", "--framework", "torch==2.1.2+cu118", "--gpu", "RTX 4090", "--explain", "--json" });
    auto report = nlohmann::json::parse(r.out);
    std::vector<std::string> keys;
    for (const auto& row : report.at("rows"))
        keys.push_back(row.at("file").get<std::string>() + " " + row.at("key").get<std::string>());
    CHECK(keys
        == std::vector<std::string> { "torch.json releases[line=2.1]",
            "torch.json releases[line=2.1].variants[tag=cu118]", "cuda.json toolkits[version=11.8.0]",
            "gpus.json gpus[name=NVIDIA GeForce RTX 4090]", "cuda.json architectures[compute_capability=8.9]",
            "cudnn.json releases[version=8.7.0]" });
}

TEST_CASE("check without --explain prints no rows", "[cli]")
{
    auto r = run_dlenv({ "check", "--cuda", "12.1", "--json" });
    CHECK_FALSE(nlohmann::json::parse(r.out).contains("rows"));
}
