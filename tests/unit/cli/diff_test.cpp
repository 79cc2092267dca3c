#include "cli/human_size.h"
#include "core/file.h"
#include "core/sha256.h"
#include "support/resigned_lock.h"
#include "support/run_dlenv.h"
#include "support/two_builds.h"

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

// What --json says of a side that is a lock file.
nlohmann::json lock_side(const std::string& path)
{
    return { { "argument", path }, { "kind", "lock" },
        { "lock", nlohmann::json::parse(read_file(path)).at("digest") } };
}

} // namespace

TEST_CASE("diff of a lock with itself exits 0 and says there are no changes", "[cli]")
{
    std::string lock = shipped("pytorch-2.1-cu118");
    auto r = run_dlenv({ "diff", lock, lock });
    CHECK(r.exit_code == 0);
    CHECK(r.out
        == "No changes: `" + lock + "` and `" + lock
            + "` lock the same stack, base image, packages, files, driver floors and GPU verdicts.\n");
    auto json = run_dlenv({ "diff", lock, lock, "--json" });
    CHECK(json.exit_code == 0);
    CHECK(nlohmann::json::parse(json.out)
        == nlohmann::json { { "before", lock }, { "after", lock }, { "equal", true }, { "changes", 0 },
            { "summary", "" }, { "sides", { { "before", lock_side(lock) }, { "after", lock_side(lock) } } },
            { "stack", nlohmann::json::array() }, { "base_image", nlohmann::json::array() },
            { "packages", nlohmann::json::array() }, { "system_packages", nlohmann::json::array() },
            { "files", nlohmann::json::array() }, { "driver", nlohmann::json::array() },
            { "gpus", nlohmann::json::array() }, { "image", nlohmann::json::array() }, { "size", nullptr },
            { "layers", nlohmann::json::array() }, { "verifications", nlohmann::json::array() } });
}

TEST_CASE("diff of torch 2.1 cu118 and cu121 prints a pull-request comment of the changed sections, exit 1", "[cli]")
{
    std::string before = shipped("pytorch-2.1-cu118");
    std::string after = shipped("pytorch-2.1-cu121");
    auto r = run_dlenv({ "diff", before, after });
    CHECK(r.exit_code == 1);
    CHECK(r.out
        == "**torch 2.1.2+cu118 → 2.1.2+cu121, CUDA 11.8.0 → 12.1.1, cuDNN 8.7.0.84 → 8.9.2.26, NCCL none → 2.18.1, "
           "arch list changed, packages unchanged, base changed, driver floor 520.61.05 → 530.30.02, "
           "2 GPU verdicts changed**\n\n`"
            + before + "` → `" + after
            + "`: 12 changes (stack 7, base image 1, driver floors 2, GPU verdicts 2)\n"
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
              "| NVIDIA L4 | (none) | ok |\n");
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
            { "summary",
                "torch 2.1.2+cu118 → 2.1.2+cu121, CUDA 11.8.0 → 12.1.1, cuDNN 8.7.0.84 → 8.9.2.26, NCCL none → "
                "2.18.1, arch list changed, packages unchanged, base changed, driver floor 520.61.05 → 530.30.02, 2 "
                "GPU verdicts changed" },
            { "sides", { { "before", lock_side(before) }, { "after", lock_side(after) } } },
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
            { "files", nlohmann::json::array() },
            { "driver",
                { change("toolkit minimum", "520.61.05", "530.30.02"),
                    change("minor-version minimum", "450.80.02", "525.60.13") } },
            { "gpus", { change("NVIDIA A10G", "ok", nullptr), change("NVIDIA L4", nullptr, "ok") } },
            { "image", nlohmann::json::array() }, { "size", nullptr }, { "layers", nlohmann::json::array() },
            { "verifications", nlohmann::json::array() } });
}

TEST_CASE("diff names each package that was repinned, added, removed or upgraded", "[cli]")
{
    std::string before = edited_lock("before.lock.json", [](nlohmann::json& json) { json["packages"].erase(0); });
    std::string after = edited_lock(
        "after.lock.json", [](nlohmann::json& json) { json["packages"][1]["sha256"] = std::string(64, 'f'); });
    auto r = run_dlenv({ "diff", before, after });
    CHECK(r.exit_code == 1);
    CHECK(r.out
        == "**torch 2.1.2+cu118 unchanged, 2 packages changed, base unchanged**\n\n`" + before + "` → `" + after
            + "`: 2 changes (Python packages 2)\n"
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

namespace {

std::int64_t total_size(const image::BuildResult& build)
{
    std::int64_t total = 0;
    for (const auto& layer : build.layers)
        total += layer.descriptor.size;
    return total;
}

std::string size_cell(std::int64_t bytes)
{
    return cli::human_size(bytes) + " (" + std::to_string(bytes) + " B)";
}

std::string layer_cell(const image::BuiltLayer& layer)
{
    return "`" + layer.descriptor.digest.short_text() + "` " + cli::human_size(layer.descriptor.size) + ", "
        + layer.created_by;
}

} // namespace

TEST_CASE("diff of two images of the store names the file, the layers and the verification that differ", "[cli]")
{
    Scratch scratch;
    TwoBuilds builds = two_builds(scratch);
    std::string store = (scratch / "store").string();
    const auto& a = builds.first;
    const auto& b = builds.second;
    std::string a_train = sha256_hex("print('train')\n");
    std::string b_train = sha256_hex("print('train, again')\n");
    std::string layers;
    std::size_t changed = 0;
    for (std::size_t i = 0; i < a.layers.size(); ++i)
        if (a.layers[i].descriptor.digest != b.layers[i].descriptor.digest) {
            layers += "| " + std::to_string(i + 1) + " | " + layer_cell(a.layers[i]) + " | " + layer_cell(b.layers[i])
                + " |\n";
            ++changed;
        }
    bool sized = total_size(a) != total_size(b);
    std::string n = std::to_string(a.layers.size());
    auto r = run_dlenv({ "diff", "app:rollback", "app:latest", "--store", store });
    CHECK(r.exit_code == 1);
    CHECK(r.out
        == "**torch 2.1.2+cu118 unchanged, packages unchanged, 1 file changed, base unchanged, "
            + std::to_string(changed) + " of " + n + " layers changed, static passed → not run**\n\n"
            + "`app:rollback` → `app:latest`: " + std::to_string(3 + changed + (sized ? 1 : 0))
            + " changes (files 1, image " + (sized ? "2" : "1") + ", layers " + std::to_string(changed)
            + ", verifications 1)\n" + "- `app:rollback`: image `" + a.manifest.digest.text() + "`, " + n + " layers, "
            + cli::human_size(total_size(a)) + "; static passed\n" + "- `app:latest`: image `"
            + b.manifest.digest.text() + "`, " + n + " layers, " + cli::human_size(total_size(b)) + "; static not run\n"
            + "\n### Files\n\n| | before | after |\n|---|---|---|\n" + "| /app/train.py | " + a_train.substr(0, 12)
            + " mode 0755 | " + b_train.substr(0, 12) + " mode 0755 |\n"
            + "\n### Image\n\n| | before | after |\n|---|---|---|\n" + "| digest | " + a.manifest.digest.text() + " | "
            + b.manifest.digest.text() + " |\n"
            + (sized ? "| size | " + size_cell(total_size(a)) + " | " + size_cell(total_size(b)) + " |\n" : "")
            + "\n### Layers\n\n| layer | before | after |\n|---|---|---|\n" + layers
            + "\n### Verifications\n\n| | before | after |\n|---|---|---|\n| static | passed | not run |\n");

    auto json = run_dlenv({ "diff", "app:rollback", "app@" + b.manifest.digest.text(), "--store", store, "--json" });
    CHECK(json.exit_code == 1);
    auto out = nlohmann::json::parse(json.out);
    CHECK(out.at("sides").at("before")
        == nlohmann::json { { "argument", "app:rollback" }, { "kind", "image" }, { "name", "app" },
            { "digest", a.manifest.digest.text() }, { "lock", a.lock_digest }, { "base", nullptr },
            { "layers", a.layers.size() }, { "size", total_size(a) },
            { "verifications", { { "static", "passed" } } } });
    CHECK(out.at("image")
        == nlohmann::json {
            { { "field", "digest" }, { "before", a.manifest.digest.text() }, { "after", b.manifest.digest.text() } } });
    CHECK(out.at("verifications")
        == nlohmann::json { { { "field", "static" }, { "before", "passed" }, { "after", "not run" } } });
    CHECK(out.at("layers").size() == changed);
    CHECK(out.at("layers")[0].at("after")
        == nlohmann::json { { "digest", b.layers[0].descriptor.digest.text() }, { "size", b.layers[0].descriptor.size },
            { "created_by", b.layers[0].created_by } });
}

TEST_CASE("diff of a lock and the image built from it exits 0, and of a bad image name exits 2", "[cli]")
{
    Scratch scratch;
    TwoBuilds builds = two_builds(scratch);
    std::string store = (scratch / "store").string();
    auto r = run_dlenv({ "diff", builds.first_lock, "app:rollback", "--store", store });
    CHECK(r.exit_code == 0);
    CHECK(r.out
        == "No changes: `" + builds.first_lock
            + "` and `app:rollback` lock the same stack, base image, packages, files, driver floors and GPU verdicts.\n"
              "- `app:rollback`: image `"
            + builds.first.manifest.digest.text() + "`, " + std::to_string(builds.first.layers.size()) + " layers, "
            + cli::human_size(total_size(builds.first)) + "; static passed\n");
    auto bad = run_dlenv({ "diff", builds.first_lock, "App:latest", "--store", store, "--json" });
    CHECK(bad.exit_code == 2);
}
