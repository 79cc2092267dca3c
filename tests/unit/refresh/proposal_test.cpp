#include "matrix/matrix.h"
#include "refresh/proposal.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <functional>

using namespace dlenv;
using namespace dlenv::refresh;

namespace {

using Files = std::map<std::string, std::string>;

// The real matrix files with one document changed by `edit`, written as the files are.
Files with_edit(const std::string& name, const std::function<void(nlohmann::ordered_json&)>& edit)
{
    Files files = matrix::matrix_files({});
    auto doc = nlohmann::ordered_json::parse(files.at(name));
    edit(doc);
    files[name] = doc.dump(2, ' ', true) + (files.at(name).ends_with('\n') ? "\n" : "");
    return files;
}

Published nothing_new()
{
    return { Upstream::under("http://127.0.0.1:1"), {}, {}, {} };
}

// torch 2.6 as the index lists it: cu124 with the pins of its cp312 wheel's METADATA.
PublishedTorchLine torch_26()
{
    PublishedTorchVariant cu124 { "cu124", CudaVersion::parse("12.4"),
        pypi::DistributionFile { "torch", "torch-2.6.0+cu124-cp312-cp312-linux_x86_64.whl",
            "http://127.0.0.1:1/whl/cu124/torch-2.6.0%2Bcu124-cp312-cp312-linux_x86_64.whl", std::string(64, 'a') },
        { { "nvidia-cuda-runtime-cu12", "12.4.127" }, { "nvidia-cudnn-cu12", "9.1.0.70" },
            { "nvidia-nccl-cu12", "2.21.5" } },
        "http://127.0.0.1:1/whl/cu124/torch-2.6.0%2Bcu124-cp312-cp312-linux_x86_64.whl.metadata" };
    return { "2.6", { Pep440Version::parse("2.6.0") }, { { "cu124", cu124 } },
        { PythonVersion::parse("3.9"), PythonVersion::parse("3.13") } };
}

Proposal propose_on(const Files& files, const Published& published)
{
    return propose(files, matrix::Matrix::load(files, "m"), published);
}

} // namespace

TEST_CASE("nothing published beyond the matrix proposes nothing and keeps every file's bytes", "[refresh]")
{
    Files files = matrix::matrix_files({});
    Published published = nothing_new();
    published.torch = { torch_26() };
    Proposal proposal = propose_on(files, published);
    CHECK(proposal.empty());
    CHECK(proposal.files == files);
}

TEST_CASE("a torch variant the matrix lacks is proposed with its pins, its sources and what needs a hand", "[refresh]")
{
    Files files = with_edit("torch.json", [](auto& doc) {
        for (auto& release : doc["releases"])
            if (release["line"] == "2.6") {
                auto& variants = release["variants"];
                variants.erase(
                    std::remove_if(variants.begin(), variants.end(), [](const auto& v) { return v["tag"] == "cu124"; }),
                    variants.end());
            }
    });
    Published published = nothing_new();
    published.torch = { torch_26() };
    Proposal proposal = propose_on(files, published);
    REQUIRE(proposal.changes.size() == 1);
    const Change& change = proposal.changes[0];
    CHECK(change.file == "torch.json");
    CHECK(change.key == "releases[line=2.6].variants[tag=cu124]");
    CHECK(change.summary
        == "CUDA 12.4, cuDNN 9.1.0.70, NCCL 2.21.5 (pins read from "
           "torch-2.6.0+cu124-cp312-cp312-linux_x86_64.whl.metadata)");
    CHECK(change.hand_facts == std::vector<std::string> { "arch_list", "ptx", "pypi_default" });

    auto doc = nlohmann::ordered_json::parse(proposal.files.at("torch.json"));
    nlohmann::ordered_json row;
    for (const auto& release : doc["releases"])
        if (release["line"] == "2.6")
            row = release["variants"].back();
    CHECK(row.dump()
        == R"({"tag":"cu124","cuda":"12.4","cuda_full":null,"pypi_default":false,"cudnn":"9.1.0.70",)"
           R"("nccl":"2.21.5","arch_list":null,"ptx":null,"note":"Proposed by dlenv matrix refresh from )"
           R"(the wheel index (pins read from torch-2.6.0+cu124-cp312-cp312-linux_x86_64.whl.metadata). )"
           R"(arch_list, ptx and pypi_default are not derived: fill them from the release's build )"
           R"(scripts.","source":["PT_WHL_INDEX","PT_WHL_META_2_6_CU124"],"confidence":"confirmed"})");
    CHECK(doc["sources"]["PT_WHL_META_2_6_CU124"]["url"]
        == "http://127.0.0.1:1/whl/cu124/torch-2.6.0%2Bcu124-cp312-cp312-linux_x86_64.whl.metadata");
    // The rest of the file is as it was: only the row and its two sources are new.
    CHECK(proposal.files.at("torch.json").size() > files.at("torch.json").size());
    CHECK(matrix::Matrix::load(proposal.files, "refreshed").sha256() != matrix::Matrix::load(files, "m").sha256());
}

TEST_CASE("a torch line newer than the matrix's is proposed with its Python range and variants", "[refresh]")
{
    PublishedTorchLine line = torch_26();
    line.line = "9.1";
    line.versions = { Pep440Version::parse("9.1.0") };
    Published published = nothing_new();
    published.torch = { line };
    Proposal proposal = propose_on(matrix::matrix_files({}), published);
    REQUIRE(proposal.changes.size() == 2);
    CHECK(proposal.changes[0].key == "releases[line=9.1]");
    CHECK(proposal.changes[0].summary == "versions 9.1.0, Python 3.9-3.13");
    CHECK(proposal.changes[0].hand_facts == std::vector<std::string> { "python.experimental", "companions" });
    CHECK(proposal.changes[1].key == "releases[line=9.1].variants[tag=cu124]");
    auto doc = nlohmann::ordered_json::parse(proposal.files.at("torch.json"));
    CHECK(doc["releases"][0]["line"] == "9.1"); // newest first
}

TEST_CASE("CPython wheels beyond a known line's Python range need a hand row, experimental ones do not", "[refresh]")
{
    const auto& embedded = matrix::Matrix::embedded();
    const auto& release = embedded.torch_releases().back(); // the oldest line
    PublishedTorchLine line { release.line, release.versions, {}, { PythonVersion::parse("3.99") } };
    for (const auto& v : release.python_experimental)
        line.pythons.push_back(v);
    Published published = nothing_new();
    published.torch = { line };
    Proposal proposal = propose_on(matrix::matrix_files({}), published);
    CHECK(proposal.changes.empty());
    CHECK(proposal.hand_rows
        == std::vector<std::string> { "torch " + release.line
            + " has CPython 3.99 wheels on the index, outside its row's Python range " + release.python.describe()
            + "; needs its python.max or python.experimental from the release notes" });
}

TEST_CASE("a CUDA update release the matrix lacks is proposed without a driver, which needs a hand row", "[refresh]")
{
    Files files = with_edit("cuda.json", [](auto& doc) {
        auto& toolkits = doc["toolkits"];
        toolkits.erase(
            std::remove_if(toolkits.begin(), toolkits.end(), [](const auto& t) { return t["version"] == "12.4.1"; }),
            toolkits.end());
    });
    Published published = nothing_new();
    published.cuda = { { CudaVersion::parse("12.4.1"), "http://127.0.0.1:1/compute/cuda/redist/redistrib_12.4.1.json",
        "2024-04-03", DriverVersion::parse("550.54.15") } };
    Proposal proposal = propose_on(files, published);
    REQUIRE(proposal.changes.size() == 1);
    CHECK(proposal.changes[0].key == "toolkits[version=12.4.1]");
    CHECK(proposal.changes[0].summary
        == "12.4 Update 1, released 2024-04-03 (the manifest bundles Linux driver 550.54.15)");
    CHECK(proposal.changes[0].hand_facts == std::vector<std::string> { "driver_linux", "driver_windows" });
    auto refreshed = matrix::Matrix::load(proposal.files, "refreshed");
    auto releases = refreshed.toolkit_releases(CudaVersion::parse("12.4"));
    REQUIRE(releases.size() == 2);
    CHECK(releases[0]->version.text() == "12.4.1");
    CHECK_FALSE(releases[0]->driver_linux);
    CHECK(refreshed.first_toolkit(CudaVersion::parse("12.4"))->version.text() == "12.4.0");
}

TEST_CASE("a jax release PyPI has no jaxlib of is proposed as published alone, with the jaxlib before it", "[refresh]")
{
    // PyPI: jax 0.5.1, 0.5.2 and 0.5.3, jaxlib 0.5.1 and 0.5.3; the matrix without its rows
    Files files = with_edit("jax.json", [](nlohmann::ordered_json& d) { d.erase("jax_alone_releases"); });
    Published published = nothing_new();
    published.pypi["jax"]
        = { Pep440Version::parse("0.5.1"), Pep440Version::parse("0.5.2"), Pep440Version::parse("0.5.3") };
    published.pypi["jaxlib"] = { Pep440Version::parse("0.5.1"), Pep440Version::parse("0.5.3") };
    Proposal proposal = propose_on(files, published);
    REQUIRE(proposal.changes.size() == 1);
    CHECK(proposal.changes[0].file == "jax.json");
    CHECK(proposal.changes[0].key == "jax_alone_releases[jax=0.5.2]");
    CHECK(proposal.changes[0].summary
        == "jaxlib 0.5.1, the newest before it (PyPI has jax 0.5.2 and no jaxlib of its number; check setup.py's "
           "_current_jaxlib_version at its tag)");
    CHECK(proposal.changes[0].hand_facts.empty());
    CHECK(proposal.hand_rows.empty());
    auto doc = nlohmann::ordered_json::parse(proposal.files.at("jax.json"));
    CHECK(
        doc["jax_alone_releases"]["rows"] == nlohmann::ordered_json::parse(R"([{"jax": "0.5.2", "jaxlib": "0.5.1"}])"));
    CHECK(doc["jax_alone_releases"]["source"] == nlohmann::ordered_json::parse(R"(["PYPI_JAX", "PYPI_JAXLIB"])"));
    CHECK(doc["jax_alone_releases"]["confidence"] == "secondary");
    CHECK(doc["sources"]["PYPI_JAXLIB"]["url"] == "http://127.0.0.1:1/pypi/jaxlib/json");
    // the refreshed matrix refuses jaxlib 0.5.2 as the shipped one does
    auto refreshed = matrix::Matrix::load(proposal.files, "refreshed");
    const auto* alone = refreshed.jax_released_alone(Pep440Version::parse("0.5.2"));
    REQUIRE(alone);
    CHECK(alone->jaxlib == Pep440Version::parse("0.5.1"));
    // where the matrix has the row, or jaxlib's releases were not read, nothing is proposed
    CHECK(propose_on(matrix::matrix_files({}), published).empty());
    published.pypi.erase("jaxlib");
    CHECK(propose_on(files, published).empty());
}

TEST_CASE("PyPI releases extend a known TensorFlow line, and newer lines, jax and cuDNN need hand rows", "[refresh]")
{
    const auto& embedded = matrix::Matrix::embedded();
    const auto& tensorflow = embedded.tensorflow_releases().front(); // the newest line
    std::string patch = tensorflow.line + ".99";
    std::string newest_cudnn = embedded.cudnn_releases().front().version.text();
    Published published = nothing_new();
    published.pypi["tensorflow"]
        = { tensorflow.versions.front(), Pep440Version::parse(patch), Pep440Version::parse("99.0.0") };
    published.pypi["jax"] = { Pep440Version::parse("99.0.0"), Pep440Version::parse("99.0.1") };
    published.pypi["nvidia-cudnn-cu12"] = { Pep440Version::parse("9.1.0.70"), Pep440Version::parse("99.0.0.1") };
    Proposal proposal = propose_on(matrix::matrix_files({}), published);
    REQUIRE(proposal.changes.size() == 1);
    CHECK(proposal.changes[0].key == "releases[line=" + tensorflow.line + "].versions");
    CHECK(proposal.changes[0].summary
        == "+ " + patch + " (a patch release of the line: check that its tested build is the line's)");
    REQUIRE(proposal.hand_rows.size() == 3);
    CHECK(proposal.hand_rows[0]
        == "tensorflow 99.0.0 on PyPI: no row of their lines; needs a row per line (CUDA, cuDNN, Python from the "
           "tested build configurations)");
    CHECK_THAT(proposal.hand_rows[1],
        Catch::StartsWith("jax 99.0.0, 99.0.1 on PyPI: ")
            && Catch::EndsWith("; needs a row (CUDA and cuDNN floors, Python range, the CUDA plugins)"));
    CHECK(proposal.hand_rows[2]
        == "nvidia-cudnn-cu12 99.0.0.1 on PyPI: newer than every release row (" + newest_cudnn
            + "); needs a release row (builds, driver, compute capabilities)");
    auto doc = nlohmann::ordered_json::parse(proposal.files.at("tensorflow.json"));
    CHECK(doc["releases"][0]["versions"].back() == patch);
    CHECK(doc["sources"]["PYPI_TENSORFLOW"]["url"] == "http://127.0.0.1:1/pypi/tensorflow/json");
}
