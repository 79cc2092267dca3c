#include "core/file.h"
#include "support/resigned_lock.h"
#include "support/run_dlenv.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <unistd.h>

using namespace dlenv;
using dlenv::testing::error_of;
using dlenv::testing::run_dlenv;

namespace {

std::string shipped(const std::string& name)
{
    return std::string(DLENV_SOURCE_DIR) + "/lockfiles/" + name + ".lock.json";
}

const std::string k_every_section = std::string(DLENV_SOURCE_DIR) + "/tests/fixtures/lock/every_section.lock.json";

// The fixture lock edited by `edit` and signed again, written where the test can name it.
std::string edited_lock(const std::string& name, void (*edit)(nlohmann::json&))
{
    auto dir = std::filesystem::temp_directory_path() / ("dlenv-diff-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    nlohmann::json json = nlohmann::json::parse(read_file(k_every_section));
    edit(json);
    std::string path = (dir / name).string();
    write_file_atomic(path, testing::resigned_lock(json));
    return path;
}

} // namespace

TEST_CASE("diff of a lock with itself exits 0 and says there are no changes", "[cli]")
{
    std::string lock = shipped("pytorch-2.1-cu118");
    auto r = run_dlenv({ "diff", lock, lock });
    CHECK(r.exit_code == 0);
    CHECK(r.out
        == "No changes: `" + lock + "` and `" + lock
            + "` lock the same stack, base image, packages, driver floors and GPU verdicts.\n");
    auto json = run_dlenv({ "diff", lock, lock, "--json" });
    CHECK(json.exit_code == 0);
    CHECK(nlohmann::json::parse(json.out)
        == nlohmann::json { { "before", lock }, { "after", lock }, { "equal", true }, { "changes", 0 },
            { "stack", nlohmann::json::array() }, { "base_image", nlohmann::json::array() },
            { "packages", nlohmann::json::array() }, { "system_packages", nlohmann::json::array() },
            { "driver", nlohmann::json::array() }, { "gpus", nlohmann::json::array() } });
}

TEST_CASE("diff of torch 2.1 cu118 and cu121 prints a pull-request comment of the changed sections, exit 1", "[cli]")
{
    std::string before = shipped("pytorch-2.1-cu118");
    std::string after = shipped("pytorch-2.1-cu121");
    auto r = run_dlenv({ "diff", before, after });
    CHECK(r.exit_code == 1);
    CHECK(r.out
        == "**`" + before + "` → `" + after
            + "`: 12 changes** (stack 7, base image 1, driver floors 2, GPU verdicts 2)\n"
              "\n### Stack\n\n| | before | after |\n|---|---|---|\n"
              "| framework | torch 2.1.2+cu118 | torch 2.1.2+cu121 |\n"
              "| torchaudio | 2.1.2+cu118 | 2.1.2+cu121 |\n"
              "| torchvision | 0.16.2+cu118 | 0.16.2+cu121 |\n"
              "| CUDA | 11.8.0 | 12.1.1 |\n"
              "| cuDNN | 8.7.0.84 | 8.9.2.26 |\n"
              "| NCCL | (none) | 2.18.1 |\n"
              "| arch list | 3.7 5.0 6.0 7.0 7.5 8.0 8.6 9.0 | 5.0 6.0 7.0 7.5 8.0 8.6 9.0 |\n"
              "\n### Base image\n\n| | before | after |\n|---|---|---|\n"
              "| reference | nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04 | "
              "nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04 |\n"
              "\n### Driver floors\n\n| | before | after |\n|---|---|---|\n"
              "| toolkit minimum | 520.61.05 | 530.30.02 |\n"
              "| minor-version minimum | 450.80.02 | 525.60.13 |\n"
              "\n### GPU verdicts\n\n| | before | after |\n|---|---|---|\n"
              "| NVIDIA A10G | ok | (none) |\n"
              "| NVIDIA L4 | (none) | warning |\n");
}

TEST_CASE("diff --json of torch 2.1 cu118 and cu121 carries the same changes as data", "[cli]")
{
    std::string before = shipped("pytorch-2.1-cu118");
    std::string after = shipped("pytorch-2.1-cu121");
    auto r = run_dlenv({ "diff", before, after, "--json" });
    CHECK(r.exit_code == 1);
    auto change = [](const char* field, nlohmann::json a, nlohmann::json b) {
        return nlohmann::json { { "field", field }, { "before", a }, { "after", b } };
    };
    CHECK(nlohmann::json::parse(r.out)
        == nlohmann::json { { "before", before }, { "after", after }, { "equal", false }, { "changes", 12 },
            { "stack",
                { change("framework", "torch 2.1.2+cu118", "torch 2.1.2+cu121"),
                    change("torchaudio", "2.1.2+cu118", "2.1.2+cu121"),
                    change("torchvision", "0.16.2+cu118", "0.16.2+cu121"), change("CUDA", "11.8.0", "12.1.1"),
                    change("cuDNN", "8.7.0.84", "8.9.2.26"), change("NCCL", nullptr, "2.18.1"),
                    change("arch list", "3.7 5.0 6.0 7.0 7.5 8.0 8.6 9.0", "5.0 6.0 7.0 7.5 8.0 8.6 9.0") } },
            { "base_image",
                { change("reference", "nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04",
                    "nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04") } },
            { "packages", nlohmann::json::array() }, { "system_packages", nlohmann::json::array() },
            { "driver",
                { change("toolkit minimum", "520.61.05", "530.30.02"),
                    change("minor-version minimum", "450.80.02", "525.60.13") } },
            { "gpus", { change("NVIDIA A10G", "ok", nullptr), change("NVIDIA L4", nullptr, "warning") } } });
}

TEST_CASE("diff names each package that was repinned, added, removed or upgraded", "[cli]")
{
    std::string before = edited_lock("before.lock.json", [](nlohmann::json& json) { json["packages"].erase(0); });
    std::string after = edited_lock(
        "after.lock.json", [](nlohmann::json& json) { json["packages"][1]["sha256"] = std::string(64, 'f'); });
    auto r = run_dlenv({ "diff", before, after });
    CHECK(r.exit_code == 1);
    CHECK(r.out
        == "**`" + before + "` → `" + after
            + "`: 2 changes** (Python packages 2)\n"
              "\n### Python packages\n\n| package | change | before | after |\n|---|---|---|---|\n"
              "| numpy | added | (none) | 1.26.4 |\n"
              "| torch | sha256 | 2.1.2+cu118 `eeeeeeeeeeee` | 2.1.2+cu118 `ffffffffffff` |\n");
    auto json = nlohmann::json::parse(run_dlenv({ "diff", before, after, "--json" }).out);
    CHECK(json.at("packages")
        == nlohmann::json { { { "name", "numpy" }, { "change", "added" }, { "before", nullptr },
                                { "after", { { "version", "1.26.4" }, { "sha256", std::string(64, 'd') } } } },
            { { "name", "torch" }, { "change", "sha256" },
                { "before", { { "version", "2.1.2+cu118" }, { "sha256", std::string(64, 'e') } } },
                { "after", { { "version", "2.1.2+cu118" }, { "sha256", std::string(64, 'f') } } } } });
}

TEST_CASE("diff of a file that is no valid lock exits 2 naming the file and the field", "[cli]")
{
    std::string bad = edited_lock("bad.lock.json", [](nlohmann::json& json) { json["stack"]["cuda"] = "eleven"; });
    auto r = run_dlenv({ "diff", shipped("pytorch-2.1-cu118"), bad, "--json" });
    CHECK(r.exit_code == 2);
    CHECK(error_of(r) == bad + ": stack.cuda: 'eleven' is not a CUDA version | write it as 11.8 or 12.2.2");
    auto missing = run_dlenv({ "diff", "missing.lock.json", bad, "--json" });
    CHECK(missing.exit_code == 2);
    CHECK(error_of(missing) == "no such file: missing.lock.json | ");
}
