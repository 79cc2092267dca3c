// The rows `dlenv check --explain` prints, against the embedded matrix.

#include "matrix/matrix.h"
#include "resolve/explain.h"
#include "resolve/query.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace dlenv;
using namespace dlenv::resolve;

namespace {

std::vector<std::string> keys(const std::vector<RowUsed>& rows)
{
    std::vector<std::string> out;
    for (const auto& row : rows)
        out.push_back(row.file + " " + row.key);
    return out;
}

const RowUsed& row(const std::vector<RowUsed>& rows, const std::string& key)
{
    for (const auto& r : rows)
        if (r.key == key)
            return r;
    FAIL("no row " + key);
    throw;
}

Query torch_cu118_on_4090()
{
    Query query;
    query.frameworks = { FrameworkRequest::parse("torch==2.1.2+cu118") };
    query.driver = DriverVersion::parse("520.61.05");
    query.gpus = { "RTX 4090" };
    return query;
}

} // namespace

TEST_CASE("explain names every row a torch check rests on: line, variant, toolkit, floor, GPU, architecture, cuDNN",
    "[resolve]")
{
    auto rows = rows_used(matrix::Matrix::embedded(), torch_cu118_on_4090());
    CHECK(keys(rows)
        == std::vector<std::string> { "torch.json releases[line=2.1]",
            "torch.json releases[line=2.1].variants[tag=cu118]", "cuda.json toolkits[version=11.8.0]",
            "cuda.json minor_version_compatibility[major=11]", "nvidia_require_cuda.json releases[cuda=11.8.0]",
            "gpus.json gpus[name=NVIDIA GeForce RTX 4090]", "cuda.json architectures[compute_capability=8.9]",
            "cudnn.json releases[version=8.7.0]" });
}

TEST_CASE("explain gives tensorflow's NCCL requirement as a row of its own, with its own sources", "[resolve]")
{
    Query query;
    query.frameworks = { FrameworkRequest::parse("tensorflow==2.16.1") };
    auto rows = rows_used(matrix::Matrix::embedded(), query);
    const auto& line = row(rows, "releases[line=2.16]");
    CHECK(line.provenance.confidence == matrix::Confidence::confirmed);
    const auto& nccl = row(rows, "releases[line=2.16].nccl");
    CHECK(nccl.file == "tensorflow.json");
    CHECK(nccl.facts == std::vector<std::pair<std::string, std::string>> { { "nccl", "2.19.3" } });
    CHECK(nccl.provenance.confidence == matrix::Confidence::secondary);
    CHECK(nccl.provenance.sources.front()->key == "TF_NCCL_216_PIP");
}

TEST_CASE("explain gives a torch variant's Windows and Linux aarch64 GPU code as rows of their own, with their own "
          "sources",
    "[resolve]")
{
    auto [request, key, arch_list, ptx, source]
        = GENERATE(table<std::string, std::string, std::string, std::string, std::string>({
            { "torch==2.7.1+cu128", "releases[line=2.7].variants[tag=cu128].windows",
                "5.0 6.0 6.1 7.0 7.5 8.0 8.6 9.0 10.0 12.0", "none", "CORRIDORKEY_141" },
            { "torch==2.13.0+cu130", "releases[line=2.13].variants[tag=cu130].linux_aarch64", "8.0 9.0 10.0 11.0 12.0",
                "12.0", "PT_REL_FORK" },
        }));
    CAPTURE(key);
    Query query;
    query.frameworks = { FrameworkRequest::parse(request) };
    auto rows = rows_used(matrix::Matrix::embedded(), query);
    const auto& code = row(rows, key);
    CHECK(code.file == "torch.json");
    CHECK(
        code.facts == std::vector<std::pair<std::string, std::string>> { { "arch_list", arch_list }, { "ptx", ptx } });
    CHECK(code.provenance.confidence == matrix::Confidence::secondary);
    CHECK(code.provenance.sources.front()->key == source);
}

TEST_CASE("explain gives the start-up capability warning of torch 2.9 and 2.10 to their builds alone", "[resolve]")
{
    Query query;
    query.frameworks = { FrameworkRequest::parse("torch==2.10.0+cu130") };
    const auto rows = rows_used(matrix::Matrix::embedded(), query);
    const auto& warning = row(rows, "capability_range_warning");
    CHECK(warning.file == "torch.json");
    CHECK(warning.facts == std::vector<std::pair<std::string, std::string>> { { "from", "2.9" }, { "until", "2.11" } });
    CHECK(warning.provenance.sources.front()->key == "PT_172629");
    query.frameworks = { FrameworkRequest::parse("torch==2.11.0+cu130") };
    const auto later = rows_used(matrix::Matrix::embedded(), query);
    CHECK(
        std::none_of(later.begin(), later.end(), [](const RowUsed& r) { return r.key == "capability_range_warning"; }));
}

TEST_CASE("explain gives torch.compile's GPU minimum where a GPU below it is named", "[resolve]")
{
    Query query;
    query.frameworks = { FrameworkRequest::parse("torch==2.4.0") };
    query.gpus = { "GTX 1080" };
    const auto rows = rows_used(matrix::Matrix::embedded(), query);
    const auto& minimum = row(rows, "compile_gpu_minimum");
    CHECK(minimum.file == "torch.json");
    CHECK(minimum.facts == std::vector<std::pair<std::string, std::string>> { { "from", "2.0" }, { "min", "7.0" } });
    CHECK(minimum.provenance.sources.front()->key == "PT_93801");
    query.os = HostOs::windows_native;
    const auto windows = rows_used(matrix::Matrix::embedded(), query);
    CHECK(
        std::none_of(windows.begin(), windows.end(), [](const RowUsed& r) { return r.key == "compile_gpu_minimum"; }));
    query.os = HostOs::linux_host;
    query.gpus = { "A100" };
    const auto ampere = rows_used(matrix::Matrix::embedded(), query);
    CHECK(std::none_of(ampere.begin(), ampere.end(), [](const RowUsed& r) { return r.key == "compile_gpu_minimum"; }));
}

TEST_CASE("explain gives what a jax release does on Blackwell as a row of its own, with its own sources", "[resolve]")
{
    Query query;
    query.frameworks = { FrameworkRequest::parse("jax==0.4.30") };
    query.gpus = { "RTX 5090" };
    auto rows = rows_used(matrix::Matrix::embedded(), query);
    const auto& blackwell = row(rows, "releases[line=0.4].blackwell");
    CHECK(blackwell.file == "jax.json");
    CHECK(blackwell.facts
        == std::vector<std::pair<std::string, std::string>> {
            { "runs_on", "none" }, { "fails_on", "none" }, { "others_fail", "true" } });
    CHECK(blackwell.provenance.confidence == matrix::Confidence::secondary);
    CHECK(blackwell.provenance.sources.front()->key == "HURO_3");
}

TEST_CASE("explain gives a tensorflow release's pip extra issues as rows of their own", "[resolve]")
{
    Query query;
    query.frameworks = { FrameworkRequest::parse("tensorflow[and-cuda]==2.15.0") };
    auto rows = rows_used(matrix::Matrix::embedded(), query);
    const auto& issue = row(rows, "releases[line=2.15].pip_extra_issues[0]");
    CHECK(issue.facts
        == std::vector<std::pair<std::string, std::string>> { { "kind", "uninstallable" }, { "versions", "2.15.0" },
            { "python_from", "every Python" }, { "extra", "every extra of the build" },
            { "detail",
                "pins tensorrt-libs==8.6.1, which PyPI does not publish ('No matching distribution found for "
                "tensorrt-libs==8.6.1')" } });
    CHECK(issue.provenance.sources.front()->key == "TF_66517");
}

TEST_CASE("explain gives the facts a row contributes, and says which are not known", "[resolve]")
{
    auto rows = rows_used(matrix::Matrix::embedded(), torch_cu118_on_4090());
    const auto& toolkit = row(rows, "toolkits[version=11.8.0]");
    CHECK(toolkit.facts
        == std::vector<std::pair<std::string, std::string>> { { "name", "11.8 GA" }, { "driver_linux", "520.61.05" } });
    const auto& gpu = row(rows, "gpus[name=NVIDIA GeForce RTX 4090]");
    CHECK(gpu.facts
        == std::vector<std::pair<std::string, std::string>> {
            { "compute_capability", "8.9" }, { "segment", "geforce" } });
}

TEST_CASE("explain's JSON holds each row's file, key, facts, sources and confidence", "[resolve]")
{
    auto rows = rows_used(matrix::Matrix::embedded(), torch_cu118_on_4090());
    auto json = rows_json(rows);
    REQUIRE(json.size() == rows.size());
    const auto& toolkit = json[2];
    CHECK(toolkit["file"] == "cuda.json");
    CHECK(toolkit["key"] == "toolkits[version=11.8.0]");
    CHECK(toolkit["facts"] == nlohmann::json { { "name", "11.8 GA" }, { "driver_linux", "520.61.05" } });
    CHECK(toolkit["confidence"] == "confirmed");
    CHECK(toolkit["sources"][0]["key"] == "CUDA_RN_131");
}

TEST_CASE(
    "explain without a framework rests on the toolkit releases named, the driver branch and forward compatibility",
    "[resolve]")
{
    Query query;
    query.cuda = CudaVersion::parse("12.2.2");
    query.driver = DriverVersion::parse("535.104.05");
    query.gpus = { "sm_80" };
    query.forward_compat = true;
    auto rows = rows_used(matrix::Matrix::embedded(), query);
    CHECK(keys(rows)
        == std::vector<std::string> { "cuda.json toolkits[version=12.2.0]", "cuda.json toolkits[version=12.2.2]",
            "cuda.json minor_version_compatibility[major=12]", "nvidia_require_cuda.json releases[cuda=12.2.2]",
            "cuda.json forward_compatibility", "cuda.json driver_branches[branch=535]",
            "cuda.json architectures[compute_capability=8.0]" });
}

TEST_CASE("explain on native Windows gives the framework's Windows row and CUDA's Windows drivers, no image gate",
    "[resolve]")
{
    Query query;
    query.frameworks = { FrameworkRequest::parse("tensorflow==2.18.0") };
    query.driver = DriverVersion::parse("561.17");
    query.os = HostOs::windows_native;
    auto rows = rows_used(matrix::Matrix::embedded(), query);
    CHECK(keys(rows)
        == std::vector<std::string> { "tensorflow.json releases[line=2.18]",
            "tensorflow.json releases[line=2.18].gpu_code", "tensorflow.json windows",
            "cuda.json toolkits[version=12.5.0]", "cuda.json minor_version_compatibility[major=12]",
            "cudnn.json releases[version=9.3.0]" });
    CHECK(row(rows, "windows").facts
        == std::vector<std::pair<std::string, std::string>> { { "native_gpu", "through 2.10" },
            { "wsl2_gpu", "supported" }, { "pip_extra_linux_only", "nvidia-nccl-cu12" } });
    CHECK(row(rows, "toolkits[version=12.5.0]").facts
        == std::vector<std::pair<std::string, std::string>> { { "name", "12.5 GA" }, { "driver_windows", "555.85" } });

    query.frameworks = { FrameworkRequest::parse("torch==2.7.0") };
    CHECK(row(rows_used(matrix::Matrix::embedded(), query), "windows").facts
        == std::vector<std::pair<std::string, std::string>> {
            { "native_gpu", "every release" }, { "pypi_wheel", "the CPU build" }, { "wsl2_gpu", "not on record" } });
}

TEST_CASE("on macOS, explain gives the framework's macOS row", "[resolve]")
{
    Query query;
    query.frameworks = { FrameworkRequest::parse("tensorflow==2.14.0") };
    query.os = HostOs::macos;
    auto rows = rows_used(matrix::Matrix::embedded(), query);
    // the build and its macOS row alone: no CUDA there, so nothing of CUDA or cuDNN is judged
    CHECK(keys(rows)
        == std::vector<std::string> { "tensorflow.json releases[line=2.14]",
            "tensorflow.json releases[line=2.14].gpu_code", "tensorflow.json releases[line=2.14].pip_extra_issues[0]",
            "tensorflow.json macos" });
    CHECK(row(rows, "macos").facts == std::vector<std::pair<std::string, std::string>> { { "cuda_through", "1.1" } });
    CHECK(row(rows, "macos").provenance.sources.front()->key == "TF_INSTALL_MAC");
    query.frameworks = { FrameworkRequest::parse("torch==2.1.2") };
    CHECK(row(rows_used(matrix::Matrix::embedded(), query), "macos").facts
        == std::vector<std::pair<std::string, std::string>> { { "cuda_through", "no release" } });
    query.os = HostOs::linux_host;
    const auto linux_rows = keys(rows_used(matrix::Matrix::embedded(), query));
    CHECK(std::find(linux_rows.begin(), linux_rows.end(), "torch.json macos") == linux_rows.end());
}

TEST_CASE("explain gives the reports a TensorFlow line's run beyond its CUDA rests on", "[resolve]")
{
    Query query;
    query.frameworks = { FrameworkRequest::parse("tensorflow==2.1.0") };
    query.gpus = { "RTX 3060 Ti" };
    auto rows = rows_used(matrix::Matrix::embedded(), query);
    const auto& jit = row(rows, "releases[line=2.1].gpu_code.driver_jit");
    CHECK(jit.facts
        == std::vector<std::pair<std::string, std::string>> {
            { "driver", "JIT-compiles its PTX for a GPU newer than its CUDA" } });
    CHECK(jit.provenance.sources.size() == 3);
    CHECK(jit.provenance.sources[1]->url == "https://github.com/tensorflow/tensorflow/issues/45635");
}

TEST_CASE("explain gives torch's and jax's known issues and TensorFlow's Linux GPU minimum as rows", "[resolve]")
{
    Query query;
    query.frameworks = { FrameworkRequest::parse("torch==2.0.0+cu118") };
    const auto torch = rows_used(matrix::Matrix::embedded(), query);
    const auto& issue = row(torch, "releases[line=2.0].variants[tag=cu118].known_issues[0]");
    CHECK(issue.facts.at(1) == std::pair<std::string, std::string> { "severity", "warning" });
    CHECK(issue.facts.at(3) == std::pair<std::string, std::string> { "platform", "every platform" });
    CHECK(issue.facts.at(4) == std::pair<std::string, std::string> { "fixed_in", "2.0.1" });
    CHECK(issue.provenance.sources.front()->key == "PT_97041");
    query.frameworks = { FrameworkRequest::parse("torch==2.8.0+cu129") };
    const auto windows = rows_used(matrix::Matrix::embedded(), query);
    CHECK(row(windows, "releases[line=2.8].variants[tag=cu129].known_issues[0]").facts.at(3)
        == std::pair<std::string, std::string> { "platform", "native Windows wheels" });

    query.frameworks = { FrameworkRequest::parse("jax[cuda12]==0.4.32") };
    const auto jax = rows_used(matrix::Matrix::embedded(), query);
    const auto& yanked = row(jax, "releases[line=0.4].known_issues[0]");
    CHECK(yanked.file == "jax.json");
    CHECK(yanked.facts.at(0) == std::pair<std::string, std::string> { "versions", "0.4.32" });
    CHECK(yanked.facts.at(4) == std::pair<std::string, std::string> { "fixed_in", "0.4.33" });
    CHECK(yanked.provenance.sources.front()->key == "JAX_CHANGELOG_0433");

    query.frameworks = { FrameworkRequest::parse("tensorflow==1.13.1") };
    query.gpus = { "GTX 650 Ti" };
    const auto tensorflow = rows_used(matrix::Matrix::embedded(), query);
    const auto& minimum = row(tensorflow, "linux_gpu_minimum");
    CHECK(minimum.file == "tensorflow.json");
    CHECK(minimum.facts == std::vector<std::pair<std::string, std::string>> { { "through", "2.0" }, { "min", "3.5" } });
}

TEST_CASE("explain gives cuDNN's GPU code floor where a GPU named is below it", "[resolve]")
{
    Query query;
    query.cudnn = CudnnVersion::parse("9.14");
    query.gpus = { "GTX 1080" };
    const auto pascal = rows_used(matrix::Matrix::embedded(), query);
    const auto& floor = row(pascal, "gpu_code_floor");
    CHECK(floor.file == "cudnn.json");
    CHECK(floor.facts
        == std::vector<std::pair<std::string, std::string>> {
            { "from", "9.11.0" }, { "min", "7.5" }, { "last_below", "9.10.2" } });
    CHECK(floor.provenance.sources.front()->key == "PT_165773");

    query.gpus = { "T4" };
    const auto turing = keys(rows_used(matrix::Matrix::embedded(), query));
    CHECK(std::find(turing.begin(), turing.end(), "cudnn.json gpu_code_floor") == turing.end());
}
