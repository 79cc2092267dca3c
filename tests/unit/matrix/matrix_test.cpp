#include "core/error.h"
#include "matrix/matrix.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>

using namespace dlenv;
using namespace dlenv::matrix;

namespace {

using Files = std::map<std::string, std::string>;

// The real matrix files, as Matrix::load takes them.
Files real_files()
{
    Files files;
    for (const auto& file : embedded_matrix_files())
        files[std::string(file.name)] = std::string(file.contents);
    return files;
}

// The real files with one document changed by `edit`.
Files with_edit(const std::string& name, const std::function<void(nlohmann::json&)>& edit)
{
    Files files = real_files();
    auto doc = nlohmann::json::parse(files.at(name));
    edit(doc);
    files[name] = doc.dump(2);
    return files;
}

Error load_error(const Files& files)
{
    try {
        Matrix::load(files, "m");
    } catch (const Error& e) {
        return e;
    }
    FAIL("expected an Error");
    throw;
}

std::string version_text(const CudaToolkit* toolkit)
{
    return toolkit && toolkit->driver_linux ? toolkit->driver_linux->text() : "(none)";
}

} // namespace

// --- The embedded matrix ---------------------------------------------------------

TEST_CASE("the embedded matrix loads, with every table filled", "[matrix]")
{
    const Matrix& m = Matrix::embedded();
    CHECK_FALSE(m.toolkits().empty());
    CHECK(m.minor_version_floors().size() == 3);
    CHECK_FALSE(m.forward_compatibility().segments.empty());
    CHECK_FALSE(m.architectures().empty());
    CHECK_FALSE(m.cudnn_releases().empty());
    CHECK_FALSE(m.torch_releases().empty());
    CHECK_FALSE(m.tensorflow_releases().empty());
    CHECK_FALSE(m.jax_releases().empty());
    CHECK_FALSE(m.gpus().empty());
    CHECK(m.sha256().size() == 64);
}

TEST_CASE("loading the same files twice gives the same digest, a one-byte change gives another", "[matrix]")
{
    Files files = real_files();
    CHECK(Matrix::load(files, "m").sha256() == Matrix::embedded().sha256());
    files["cuda.json"] += "\n";
    CHECK(Matrix::load(files, "m").sha256() != Matrix::embedded().sha256());
}

TEST_CASE("the profiles directory loads to the same matrix as the embedded copy", "[matrix]")
{
    Matrix m = Matrix::load_directory(std::string(DLENV_SOURCE_DIR) + "/profiles/compat");
    CHECK(m.sha256() == Matrix::embedded().sha256());
}

TEST_CASE("the built-in image reads back as its JSON loads, each source held once", "[matrix]")
{
    const Matrix& image = Matrix::embedded();
    Matrix json = Matrix::load_directory(std::string(DLENV_SOURCE_DIR) + "/profiles/compat");
    CHECK(image.toolkits() == json.toolkits());
    CHECK(image.architectures() == json.architectures());
    CHECK(image.torch_releases() == json.torch_releases());
    CHECK(image.jax_releases() == json.jax_releases());
    CHECK(image.gpus() == json.gpus());

    // CUDA 11.8.0 and its cuda.json neighbours cite the same release-notes source: one
    // object, not a copy per row.
    std::map<std::string, std::set<const Source*>> held;
    std::size_t citations = 0;
    for (const auto& toolkit : image.toolkits())
        for (const SourceRef& source : toolkit.provenance.sources) {
            held[source->key].insert(source.get());
            ++citations;
        }
    CHECK(citations > held.size());
    for (const auto& [key, objects] : held) {
        CAPTURE(key);
        CHECK(objects.size() == 1);
    }
}

TEST_CASE("every GPU's compute capability has an architecture row", "[matrix]")
{
    const Matrix& m = Matrix::embedded();
    for (const auto& gpu : m.gpus()) {
        CAPTURE(gpu.name, gpu.compute_capability.text());
        const Architecture* arch = m.architecture(gpu.compute_capability);
        REQUIRE(arch);
        CHECK(arch->name == gpu.architecture);
    }
}

TEST_CASE("every torch variant's cuDNN is a release the cuDNN table knows", "[matrix]")
{
    const Matrix& m = Matrix::embedded();
    for (const auto& release : m.torch_releases())
        for (const auto& variant : release.variants) {
            if (!variant.cudnn)
                continue;
            CAPTURE(release.line, variant.tag, variant.cudnn->text());
            CHECK_FALSE(m.cudnn_releases_matching(*variant.cudnn).empty());
        }
}

TEST_CASE("every tensorflow release's cuDNN and CUDA are known", "[matrix]")
{
    const Matrix& m = Matrix::embedded();
    for (const auto& release : m.tensorflow_releases()) {
        CAPTURE(release.line);
        CHECK_FALSE(m.cudnn_releases_matching(release.cudnn).empty());
        CHECK(m.first_toolkit(release.cuda));
    }
}

TEST_CASE("every torch variant's CUDA line has a toolkit with a Linux driver", "[matrix]")
{
    const Matrix& m = Matrix::embedded();
    for (const auto& release : m.torch_releases())
        for (const auto& variant : release.variants) {
            CAPTURE(release.line, variant.tag);
            CHECK(m.first_toolkit(variant.cuda));
            CHECK(variant.tag == "cu" + std::to_string(variant.cuda.major()) + std::to_string(variant.cuda.minor()));
        }
}

TEST_CASE("the first toolkit of a CUDA line carries that line's driver floor", "[matrix]")
{
    auto [cuda, driver] = GENERATE(table<std::string, std::string>({
        { "11.8", "520.61.05" },
        { "11.8.0", "520.61.05" },
        { "12.1", "530.30.02" },
        { "12.1.1", "530.30.02" }, // any release of the line names the line
        { "12.0", "525.60.13" },
        { "12.2", "535.54.03" },
        { "12.8", "570.26" },
        { "13.0", "580.65.06" },
    }));
    CAPTURE(cuda);
    CHECK(version_text(Matrix::embedded().first_toolkit(CudaVersion::parse(cuda))) == driver);
}

TEST_CASE("a CUDA line that was never released has no first toolkit", "[matrix]")
{
    const Matrix& m = Matrix::embedded();
    CHECK(m.first_toolkit(CudaVersion::parse("12.7")) == nullptr);
    CHECK(m.toolkit_releases(CudaVersion::parse("12.7")).empty());
}

TEST_CASE("toolkit_releases lists every release a version names", "[matrix]")
{
    const Matrix& m = Matrix::embedded();
    CHECK(m.toolkit_releases(CudaVersion::parse("12.2")).size() == 3);
    CHECK(m.toolkit_releases(CudaVersion::parse("12.2.2")).size() == 1);
    CHECK(m.toolkit_releases(CudaVersion::parse("12.2.3")).empty());
}

TEST_CASE("minor-version compatibility floors are the GA drivers of each CUDA major", "[matrix]")
{
    auto [major, driver] = GENERATE(table<std::uint32_t, std::string>({
        { 11, "450.80.02" },
        { 12, "525.60.13" },
        { 13, "580.65.06" },
    }));
    CAPTURE(major);
    const MinorVersionFloor* floor = Matrix::embedded().minor_version_floor(major);
    REQUIRE(floor);
    CHECK(floor->driver_linux.text() == driver);
}

TEST_CASE("CUDA 10 has no minor-version compatibility floor", "[matrix]")
{
    CHECK(Matrix::embedded().minor_version_floor(10) == nullptr);
}

TEST_CASE("a GPU is found by name or alias, whatever the case", "[matrix]")
{
    const Matrix& m = Matrix::embedded();
    const Gpu* gpu = m.find_gpu("NVIDIA GeForce RTX 4090");
    REQUIRE(gpu);
    CHECK(gpu->compute_capability == ComputeCapability(8, 9));
    CHECK(gpu->segment == GpuSegment::geforce);
    auto name
        = GENERATE(as<std::string> {}, "4090", "GeForce RTX 4090", "rtx 4090", "RTX 4090", "nvidia geforce rtx 4090");
    CAPTURE(name);
    CHECK(m.find_gpu(name) == gpu);
}

TEST_CASE("a product family lists its variants, whatever the case", "[matrix]")
{
    const Matrix& m = Matrix::embedded();
    std::vector<std::string> names;
    for (const auto* gpu : m.gpu_family("h100"))
        names.push_back(gpu->name);
    CHECK(names
        == std::vector<std::string> { "NVIDIA H100 80GB HBM3", "NVIDIA H100 NVL", "NVIDIA H100 PCIe", "NVIDIA H100" });
    CHECK(m.gpu_family("A100").size() == 5);
    CHECK(m.gpu_family("A10").empty()); // a model of its own, not a family
}

TEST_CASE("an architecture knows the segments NVIDIA sells its parts in, and says when it does not", "[matrix]")
{
    using matrix::GpuSegment;
    const Matrix& m = Matrix::embedded();
    auto segments = [&](const char* cc) { return m.architecture(ComputeCapability::parse(cc))->segments; };
    CHECK(segments("8.0") == std::vector { GpuSegment::datacenter });
    CHECK(segments("9.0") == std::vector { GpuSegment::datacenter });
    CHECK(segments("8.7") == std::vector { GpuSegment::jetson });
    CHECK(segments("8.6") == std::vector { GpuSegment::datacenter, GpuSegment::workstation, GpuSegment::geforce });
    CHECK_FALSE(segments("12.1").has_value()); // the GB10 alone: not sourced
}

TEST_CASE(
    "a Jetson architecture knows its newest JetPack's CUDA and from which CUDA upstream wheels serve it", "[matrix]")
{
    const Matrix& m = Matrix::embedded();
    auto jetson = [&](const char* cc) { return m.architecture(ComputeCapability::parse(cc))->jetson; };
    REQUIRE(jetson("5.3"));
    CHECK(jetson("5.3")->newest_jetpack == "4.6");
    CHECK(jetson("5.3")->cuda.text() == "10.2");
    CHECK_FALSE(jetson("5.3")->upgrade_cuda);
    CHECK(jetson("7.2")->upgrade_cuda->text() == "12.2");
    CHECK(jetson("8.7")->upstream_wheels_from->text() == "13.0"); // JetPack 7.2 moved Orin to server-Arm CUDA
    CHECK(jetson("11.0")->upstream_wheels_from->text() == "13.0");
    CHECK_FALSE(jetson("7.2")->upstream_wheels_from);
    CHECK_FALSE(jetson("8.6")); // not a Jetson architecture
    for (const auto& arch : m.architectures()) // every Jetson-only architecture CUDA still targets has them
        if (arch.segments == std::vector { matrix::GpuSegment::jetson } && !arch.max_cuda.has_value())
            CHECK(arch.jetson.has_value());
}

TEST_CASE("an unknown GPU is not found, and near names are offered for suggestions", "[matrix]")
{
    const Matrix& m = Matrix::embedded();
    CHECK(m.find_gpu("RTX 4099") == nullptr);
    CHECK(m.find_gpu("") == nullptr);
    auto names = m.gpu_names();
    CHECK(std::find(names.begin(), names.end(), "RTX 4090") != names.end());
    CHECK(std::find(names.begin(), names.end(), "NVIDIA GeForce RTX 4090") != names.end());
}

TEST_CASE("cuDNN releases match on the parts both versions have", "[matrix]")
{
    const Matrix& m = Matrix::embedded();
    CHECK(m.cudnn_releases_matching(CudnnVersion::parse("8.9")).size() >= 2);
    CHECK(m.cudnn_releases_matching(CudnnVersion::parse("8.9.2.26")).size() == 1);
    CHECK(m.cudnn_releases_matching(CudnnVersion::parse("7.6")).size() == 3);
    CHECK(m.cudnn_releases_matching(CudnnVersion::parse("7.3")).empty());
}

// --- Malformed matrix files ------------------------------------------------------

// Where cuda.json lists the architecture of `compute_capability`.
std::size_t architecture_index(std::string_view compute_capability)
{
    const auto archs = nlohmann::json::parse(real_files().at("cuda.json"))["architectures"];
    for (std::size_t i = 0; i < archs.size(); ++i)
        if (archs[i]["compute_capability"] == compute_capability)
            return i;
    FAIL("no architecture " << compute_capability << " in cuda.json");
    throw;
}

TEST_CASE("a malformed matrix file is refused, naming the file, the field and the fix", "[matrix]")
{
    using Edit = std::function<void(nlohmann::json&)>;
    struct Row {
        std::string what;
        std::string file;
        Edit edit;
        std::string message;
        std::string hint;
    };
    auto row = GENERATE(values<Row>({
        { "misspelt field", "cuda.json",
            [](nlohmann::json& d) {
                auto& t = d["toolkits"][0];
                t["drver_linux"] = t["driver_linux"];
                t.erase("driver_linux");
            },
            "m/cuda.json: toolkits[0].drver_linux: unknown field", "did you mean \"driver_linux\"?" },
        { "unknown source key", "cuda.json", [](nlohmann::json& d) { d["toolkits"][0]["source"] = { "NOPE" }; },
            "m/cuda.json: toolkits[0].source[0]: unknown source 'NOPE'", "add it to the file's \"sources\" table" },
        { "no source", "cuda.json", [](nlohmann::json& d) { d["toolkits"][0]["source"] = nlohmann::json::array(); },
            "m/cuda.json: toolkits[0].source: no source", "every fact names where it comes from" },
        { "a host other than aarch64", "gpus.json", [](nlohmann::json& d) { d["gpus"][0]["host"] = "x86_64"; },
            "m/gpus.json: gpus[0].host: expected aarch64, got 'x86_64'", "name the host only where it is always Arm" },
        { "JetPack facts off Jetson", "cuda.json",
            [](nlohmann::json& d) {
                d["architectures"][architecture_index("8.0")]["jetson"]
                    = d["architectures"][architecture_index("8.7")]["jetson"];
            },
            "m/cuda.json: architectures[" + std::to_string(architecture_index("8.0"))
                + "].jetson: JetPack facts on an architecture not sold in Jetson modules alone",
            "set \"segments\" to [\"jetson\"], or drop \"jetson\"" },
        { "upgrade below JetPack's CUDA", "cuda.json",
            [](nlohmann::json& d) { d["architectures"][architecture_index("7.2")]["jetson"]["upgrade_cuda"] = "11.4"; },
            "m/cuda.json: architectures[" + std::to_string(architecture_index("7.2"))
                + "].jetson.upgrade_cuda: upgrade_cuda 11.4 is not newer than the JetPack's CUDA 11.4",
            "name the newest CUDA the upgrade packages bring, or null for none" },
        { "a last Windows GPU release where none has it", "jax.json",
            [](nlohmann::json& d) { d["windows"]["native_gpu_through"] = "0.4.30"; },
            "m/jax.json: windows.native_gpu_through: a last release with GPU on native Windows where native_gpu is "
            "false",
            "drop native_gpu_through, or set native_gpu to true" },
        { "PyPI's CPU build named where no build has GPU on native Windows", "jax.json",
            [](nlohmann::json& d) { d["windows"]["pypi_cpu_only"] = true; },
            "m/jax.json: windows.pypi_cpu_only: PyPI's wheel named the CPU build where no build has GPU on native "
            "Windows",
            "drop pypi_cpu_only: it tells where the CUDA builds come from" },
        { "the platforms of experimental Pythons a line lacks", "torch.json",
            [](nlohmann::json& d) { d["releases"][0]["python"]["experimental_linux_only"] = true; },
            "m/torch.json: releases[0].python.experimental_linux_only: the platforms of experimental Pythons "
            "where the line lists none",
            "drop experimental_linux_only, or list them in experimental" },
        { "companion wheels of experimental Pythons a line lacks", "torch.json",
            [](nlohmann::json& d) { d["releases"][0]["python"]["experimental_companion_wheels"] = false; },
            "m/torch.json: releases[0].python.experimental_companion_wheels: companion wheels of experimental "
            "Pythons where the line lists none",
            "drop experimental_companion_wheels, or list them in experimental" },
        { "Windows wheels of free-threaded Pythons a line lacks", "torch.json",
            [](nlohmann::json& d) { d["releases"][10]["python"]["free_threaded_windows_wheels"] = false; },
            "m/torch.json: releases[10].python.free_threaded_windows_wheels: Windows wheels of free-threaded Pythons "
            "where the line lists none",
            "drop free_threaded_windows_wheels, or list them in free_threaded" },
        { "a free-threaded Python called experimental that the line does not ship", "torch.json",
            [](nlohmann::json& d) { d["releases"][5]["python"]["free_threaded_experimental"] = { "3.12" }; },
            "m/torch.json: releases[5].python.free_threaded_experimental: 3.12t is not among the line's "
            "free-threaded Pythons",
            "list it in free_threaded, or drop it from free_threaded_experimental" },
        { "minimum jaxlib rows out of order", "jax.json",
            [](nlohmann::json& d) { d["minimum_jaxlib"]["rows"][1]["jax"] = "0.1.40"; },
            "m/jax.json: minimum_jaxlib.rows[1].jax: rows out of order",
            "list the jax releases oldest first, each once" },
        { "a jax release published alone with a jaxlib not older than itself", "jax.json",
            [](nlohmann::json& d) { d["jax_alone_releases"]["rows"][0]["jaxlib"] = "0.4.5"; },
            "m/jax.json: jax_alone_releases.rows[0].jaxlib: not older than the row's jax 0.4.5",
            "name the older jaxlib the release's extras install (setup.py's _current_jaxlib_version)" },
        { "a misspelt field in a jax release published alone", "jax.json",
            [](nlohmann::json& d) {
                d["jax_alone_releases"]["rows"][0] = { { "jax", "0.4.5" }, { "jaxlibb", "0.4.4" } };
            },
            "m/jax.json: jax_alone_releases.rows[0].jaxlibb: unknown field", "did you mean \"jaxlib\"?" },
        { "a start-up capability warning that ends before it starts", "torch.json",
            [](nlohmann::json& d) { d["capability_range_warning"]["until"] = "2.9"; },
            "m/torch.json: capability_range_warning.until: a range that ends where it starts, or before",
            "give the first release without the warning, after `from`" },
        { "a bad compute capability in a variant's Windows GPU code", "torch.json",
            [](nlohmann::json& d) {
                auto& variant = d["releases"][0]["variants"][0];
                variant["windows"] = { { "arch_list", { "7.5" } }, { "ptx", { "9" } }, { "source", variant["source"] },
                    { "confidence", "secondary" } };
            },
            "m/torch.json: releases[0].variants[0].windows.ptx[0]: '9' is not a compute capability",
            "write it as 8.9 or sm_89" },
        { "a misspelt field in a variant's Windows GPU code", "torch.json",
            [](nlohmann::json& d) {
                auto& variant = d["releases"][0]["variants"][0];
                variant["windows"] = { { "arch_list", { "7.5" } }, { "pxt", nlohmann::json::array() },
                    { "source", variant["source"] }, { "confidence", "secondary" } };
            },
            "m/torch.json: releases[0].variants[0].windows.pxt: unknown field", "did you mean \"ptx\"?" },
        { "a misspelt field in a variant's Linux aarch64 GPU code", "torch.json",
            [](nlohmann::json& d) {
                auto& variant = d["releases"][0]["variants"][0];
                variant["linux_aarch64"] = { { "arch_lst", { "8.0" } }, { "ptx", nlohmann::json::array() },
                    { "source", variant["source"] }, { "confidence", "secondary" } };
            },
            "m/torch.json: releases[0].variants[0].linux_aarch64.arch_lst: unknown field",
            "did you mean \"arch_list\"?" },
        { "a torch known issue of an unknown severity", "torch.json",
            [](nlohmann::json& d) {
                auto& variant = d["releases"][0]["variants"][0];
                variant["known_issues"] = { { { "versions", d["releases"][0]["versions"] }, { "severity", "fatal" },
                    { "detail", "x" }, { "source", variant["source"] }, { "confidence", "secondary" } } };
            },
            "m/torch.json: releases[0].variants[0].known_issues[0].severity: expected error or warning, got 'fatal'",
            "" },
        { "a torch known issue naming a release outside its row", "torch.json",
            [](nlohmann::json& d) {
                auto& variant = d["releases"][0]["variants"][0];
                variant["known_issues"] = { { { "versions", { "1.0.0" } }, { "severity", "error" }, { "detail", "x" },
                    { "source", variant["source"] }, { "confidence", "secondary" } } };
            },
            "m/torch.json: releases[0].variants[0].known_issues[0].versions[0]: 1.0.0 is not a release of the row",
            "list releases from the row's \"versions\"" },
        { "a bad free-threaded Python in a jax row", "jax.json",
            [](nlohmann::json& d) { d["releases"][0]["python"]["free_threaded"] = { "3.x" }; },
            "m/jax.json: releases[0].python.free_threaded[0]: '3.x' is not a Python version", "write it as 3.10" },
        { "a driver JIT of PTX the wheels lack", "tensorflow.json",
            [](nlohmann::json& d) { d["releases"][20]["gpu_code"]["ptx"] = nlohmann::json::array(); },
            "m/tensorflow.json: releases[20].gpu_code.driver_jit: a driver JIT of PTX the wheels do not carry",
            "drop driver_jit, or list the PTX in ptx" },
        { "jax releases of two lines in one row", "jax.json",
            [](nlohmann::json& d) { d["releases"][27]["jax_versions"].push_back("0.2.28"); },
            "m/jax.json: releases[27].jax_versions[2]: jax 0.2.28 is of another line than the row's first jax release",
            "give each jax line's releases a row of their own" },
        { "a Linux GPU minimum over lines whose GPU code is on record", "tensorflow.json",
            [](nlohmann::json& d) { d["linux_gpu_minimum"]["through"] = "2.1"; },
            "m/tensorflow.json: linux_gpu_minimum.through: tensorflow 2.1's GPU code is on record",
            "end the minimum before the first line with gpu_code" },
        { "a misspelt field in the macOS block", "tensorflow.json",
            [](nlohmann::json& d) { d["macos"]["cuda_thru"] = "1.1"; },
            "m/tensorflow.json: macos.cuda_thru: unknown field", "did you mean \"cuda_through\"?" },
        { "unknown WSL 2 support", "tensorflow.json", [](nlohmann::json& d) { d["windows"]["wsl2_gpu"] = "yes"; },
            "m/tensorflow.json: windows.wsl2_gpu: expected supported or experimental, got 'yes'", "" },
        { "a bad first release of jax's cpu extra", "jax.json",
            [](nlohmann::json& d) { d["cpu_extra"]["from"] = "0.2.x"; },
            "m/jax.json: cpu_extra.from: '0.2.x' is not a PEP 440 version",
            "write it as 2.1.2, 2.1.2+cu118 or 2.2.0rc1" },
        { "a misspelt first release of the Windows CPU wheels", "jax.json",
            [](nlohmann::json& d) { d["windows"]["cpu_wheel_from"] = "0.4.13"; },
            "m/jax.json: windows.cpu_wheel_from: unknown field", "did you mean \"cpu_wheels_from\"?" },
        { "bad CUDA version", "cuda.json", [](nlohmann::json& d) { d["toolkits"][0]["version"] = "13.x"; },
            "m/cuda.json: toolkits[0].version: '13.x' is not a CUDA version", "write it as 11.8 or 12.2.2" },
        { "bad driver version", "cuda.json", [](nlohmann::json& d) { d["toolkits"][0]["driver_linux"] = "595"; },
            "m/cuda.json: toolkits[0].driver_linux: '595' is not a driver version", "write it as 535.104.05" },
        { "bad compute capability", "gpus.json", [](nlohmann::json& d) { d["gpus"][0]["compute_capability"] = "10"; },
            "m/gpus.json: gpus[0].compute_capability: '10' is not a compute capability", "write it as 8.9 or sm_89" },
        { "bad PEP 440 version", "torch.json", [](nlohmann::json& d) { d["releases"][1]["versions"][0] = "2..13"; },
            "m/torch.json: releases[1].versions[0]: '2..13' is not a PEP 440 version",
            "write it as 2.1.2, 2.1.2+cu118 or 2.2.0rc1" },
        { "unknown format", "cuda.json", [](nlohmann::json& d) { d["format"] = "dlenv.compat/v9"; },
            "m/cuda.json: format: unknown format 'dlenv.compat/v9'",
            "this dlenv reads dlenv.compat/v1; upgrade dlenv or regenerate the file" },
        { "missing format", "jax.json", [](nlohmann::json& d) { d.erase("format"); }, "m/jax.json: format: missing",
            "add the field \"format\"" },
        { "wrong type", "cuda.json", [](nlohmann::json& d) { d["toolkits"][0]["name"] = 12; },
            "m/cuda.json: toolkits[0].name: expected a string, got 12 (number)", "" },
        { "unknown confidence", "cuda.json", [](nlohmann::json& d) { d["toolkits"][0]["confidence"] = "likely"; },
            "m/cuda.json: toolkits[0].confidence: expected confirmed, secondary or unconfirmed, got 'likely'", "" },
        { "unknown segment", "gpus.json", [](nlohmann::json& d) { d["gpus"][0]["segment"] = "gaming"; },
            "m/gpus.json: gpus[0].segment: expected datacenter, workstation, geforce or jetson, got 'gaming'", "" },
        { "a family whose variants differ", "gpus.json",
            [](nlohmann::json& d) {
                for (auto& g : d["gpus"])
                    if (g["name"] == "NVIDIA L40")
                        g["family"] = "A100";
            },
            "m/gpus.json: family 'A100' of NVIDIA A100 80GB PCIe differs from NVIDIA L40 in compute capability or "
            "segment",
            "a family's variants share both; give the model its own family or none" },
        { "a model in a segment its architecture has no parts in", "gpus.json",
            [](nlohmann::json& d) {
                for (auto& g : d["gpus"])
                    if (g["name"] == "NVIDIA A30")
                        g["segment"] = "geforce";
            },
            "m/gpus.json: NVIDIA A30 is a geforce part, but cuda.json lists no geforce parts of compute capability 8.0",
            "correct the model's segment or the architecture's segments" },
        { "a family that names a model", "gpus.json",
            [](nlohmann::json& d) {
                for (auto& g : d["gpus"])
                    if (g["name"] == "NVIDIA H200 NVL")
                        g["family"] = "H200 SXM";
            },
            "m/gpus.json: family 'H200 SXM' of NVIDIA H200 NVL is also the name of NVIDIA H200",
            "a family name may not name one model" },
        { "an image gate of another CUDA line", "nvidia_require_cuda.json",
            [](nlohmann::json& d) {
                d["releases"][9]["require_cuda"][0]["value"] = "cuda>=12.10 brand=tesla,driver>=470,driver<471";
            },
            "m/nvidia_require_cuda.json: releases[9].require_cuda[0].value: expected the value of a CUDA 12.1.1 "
            "image to begin with cuda>=12.1",
            "" },
        { "a component of no known flavour", "cuda_components.json",
            [](nlohmann::json& d) { d["releases"][0]["libraries"][0]["flavour"] = "devel"; },
            "m/cuda_components.json: releases[0].libraries[0].flavour: unknown flavour 'devel'",
            "use base or runtime" },
        { "cuDNN libraries without a source", "cudnn.json",
            [](nlohmann::json& d) { d["libraries"][0]["source"] = nlohmann::json::array(); },
            "m/cudnn.json: libraries[0].source: no source", "every fact names where it comes from" },
        { "a cuDNN GPU code floor whose last older release is not before it", "cudnn.json",
            [](nlohmann::json& d) { d["gpu_code_floor"]["last_below"] = "9.11.0"; },
            "m/cudnn.json: gpu_code_floor.last_below: not before from", "name the newest release before the floor" },
        { "a runtime URL of another build", "python_runtimes.json",
            [](nlohmann::json& d) { d["runtimes"][0]["python"] = "3.13.10"; },
            "m/python_runtimes.json: runtimes[0].archives.aarch64.url: expected the release's asset "
            ".../cpython-3.13.10+20251209-aarch64-unknown-linux-gnu-install_only.tar.gz",
            "" },
        { "a runtime of CPython's minor only", "python_runtimes.json",
            [](nlohmann::json& d) { d["runtimes"][0]["python"] = "3.13"; },
            "m/python_runtimes.json: runtimes[0].python: expected CPython's full version, like \"3.10.19\"", "" },
        { "a runtime for another machine", "python_runtimes.json",
            [](nlohmann::json& d) { d["runtimes"][0]["archives"]["ppc64le"] = d["runtimes"][0]["archives"]["x86_64"]; },
            "m/python_runtimes.json: runtimes[0].archives.ppc64le: unknown field",
            "remove it; allowed fields: x86_64 and aarch64" },
        { "a runtime's sha256 in capitals", "python_runtimes.json",
            [](nlohmann::json& d) { d["runtimes"][1]["archives"]["x86_64"]["sha256"] = std::string(64, 'A'); },
            "m/python_runtimes.json: runtimes[1].archives.x86_64.sha256: expected 64 lowercase hexadecimal digits",
            "" },
        { "two builds of one minor", "python_runtimes.json",
            [](nlohmann::json& d) { d["runtimes"].push_back(d["runtimes"][2]); },
            "m/python_runtimes.json: two builds of CPython 3.11", "keep the newest build of each minor only" },
        { "a tensorflow NCCL requirement with a misspelt bound", "tensorflow.json",
            [](nlohmann::json& d) {
                d["releases"][4]["nccl"] = { { "mn", "2.19.3" } };
            },
            "m/tensorflow.json: releases[4].nccl.mn: unknown field", "did you mean \"min\"?" },
        { "a tensorflow NCCL requirement without a source", "tensorflow.json",
            [](nlohmann::json& d) { d["releases"][5]["nccl"]["source"] = nlohmann::json::array(); },
            "m/tensorflow.json: releases[5].nccl.source: no source", "every fact names where it comes from" },
        { "a tensorflow NCCL requirement without a floor", "tensorflow.json",
            [](nlohmann::json& d) { d["releases"][5]["nccl"].erase("min"); },
            "m/tensorflow.json: releases[5].nccl.min: missing", "add the field \"min\"" },
        { "a tensorflow NCCL ceiling below its floor", "tensorflow.json",
            [](nlohmann::json& d) { d["releases"][1]["nccl"]["max"] = "2.21.5"; },
            "m/tensorflow.json: releases[1].nccl.max: below min 2.25.1", "an == pin has min and max equal" },
        { "a tensorflow NCCL requirement on a row without a pip extra", "tensorflow.json",
            [](nlohmann::json& d) { d["releases"][8]["nccl"] = d["releases"][5]["nccl"]; },
            "m/tensorflow.json: releases[8].nccl: an NCCL requirement on a row without a pip extra",
            "name the extra in \"pip_extra\" or drop \"nccl\"" },
        { "tensorflow GPU code with a misspelt field", "tensorflow.json",
            [](nlohmann::json& d) { d["releases"][3]["gpu_code"]["cubin"] = d["releases"][3]["gpu_code"]["cubins"]; },
            "m/tensorflow.json: releases[3].gpu_code.cubin: unknown field", "did you mean \"cubins\"?" },
        { "tensorflow GPU code in TF_CUDA_COMPUTE_CAPABILITIES' spelling", "tensorflow.json",
            [](nlohmann::json& d) { d["releases"][3]["gpu_code"]["ptx"][0] = "compute_90"; },
            "m/tensorflow.json: releases[3].gpu_code.ptx[0]: 'compute_90' is not a compute capability",
            "write it as 8.9 or sm_89" },
        { "tensorflow GPU code without a source", "tensorflow.json",
            [](nlohmann::json& d) { d["releases"][3]["gpu_code"]["source"] = nlohmann::json::array(); },
            "m/tensorflow.json: releases[3].gpu_code.source: no source", "every fact names where it comes from" },
        { "a torch line's free-threaded Python that is no version", "torch.json",
            [](nlohmann::json& d) { d["releases"][5]["python"]["free_threaded"][0] = "3.13t"; },
            "m/torch.json: releases[5].python.free_threaded[0]: '3.13t' is not a Python version", "write it as 3.10" },
        { "a jax release's Blackwell row listing an older GPU", "jax.json",
            [](nlohmann::json& d) { d["releases"][0]["blackwell"]["runs_on"][0] = "9.0"; },
            "m/jax.json: releases[0].blackwell.runs_on[0]: compute capability 9.0 is not a Blackwell architecture",
            "list only 10.0 and newer: older GPUs are judged by the build's min_compute_capability" },
        { "a jax release's Blackwell row that fails where it runs", "jax.json",
            [](nlohmann::json& d) { d["releases"][0]["blackwell"]["fails_on"] = { "12.0" }; },
            "m/jax.json: releases[0].blackwell.fails_on: compute capability 12.0 is in runs_on too",
            "list an architecture where the sources put it: runs_on or fails_on" },
        { "a jax release's Blackwell row failing on an older GPU", "jax.json",
            [](nlohmann::json& d) { d["releases"][0]["blackwell"]["fails_on"] = { "8.6" }; },
            "m/jax.json: releases[0].blackwell.fails_on[0]: compute capability 8.6 is not a Blackwell architecture",
            "list only 10.0 and newer: older GPUs are judged by the build's min_compute_capability" },
        { "torch.compile's GPU minimum that is no compute capability", "torch.json",
            [](nlohmann::json& d) { d["compile_gpu_minimum"]["min"] = "seven"; },
            "m/torch.json: compile_gpu_minimum.min: 'seven' is not a compute capability", "write it as 8.9 or sm_89" },
        { "a jax release's Blackwell row with a misspelt field", "jax.json",
            [](nlohmann::json& d) { d["releases"][0]["blackwell"]["other_fail"] = false; },
            "m/jax.json: releases[0].blackwell.other_fail: unknown field", "did you mean \"others_fail\"?" },
        { "a pip extra issue of an unknown kind", "tensorflow.json",
            [](nlohmann::json& d) { d["releases"][6]["pip_extra_issues"][0]["kind"] = "broken"; },
            "m/tensorflow.json: releases[6].pip_extra_issues[0].kind: expected uninstallable, libraries-not-found or "
            "library-too-new, got 'broken'",
            "" },
        { "a pip extra issue naming an extra the row does not have", "tensorflow.json",
            [](nlohmann::json& d) { d["releases"][6]["pip_extra_issues"][0]["extra"] = "cuda"; },
            "m/tensorflow.json: releases[6].pip_extra_issues[0].extra: 'cuda' is not the pip extra and-cuda",
            "name the pip extra, or drop \"extra\" for every extra" },
        { "a pip extra issue naming a release outside its row", "tensorflow.json",
            [](nlohmann::json& d) { d["releases"][6]["pip_extra_issues"][0]["versions"][0] = "2.14.0"; },
            "m/tensorflow.json: releases[6].pip_extra_issues[0].versions[0]: 2.14.0 is not a release of the row",
            "list releases from the row's \"versions\"" },
        { "a pip extra issue on a row without an extra", "tensorflow.json",
            [](nlohmann::json& d) { d["releases"][8]["pip_extra_issues"] = d["releases"][6]["pip_extra_issues"]; },
            "m/tensorflow.json: releases[8].pip_extra_issues[0]: an issue of a pip extra on a row without one",
            "name the extra in \"pip_extra\"" },
        { "a jax build's pip extra issue naming a release outside its row", "jax.json",
            [](nlohmann::json& d) { d["releases"][21]["builds"][0]["pip_extra_issues"][0]["versions"][0] = "0.4.13"; },
            "m/jax.json: releases[21].builds[0].pip_extra_issues[0].versions[0]: 0.4.13 is not a release of the row",
            "list releases from the row's \"versions\"" },
        { "a pre-0.4 jax build's pip extra issue naming a jaxlib release, not a jax one", "jax.json",
            [](nlohmann::json& d) { d["releases"][35]["builds"][0]["pip_extra_issues"][0]["versions"][0] = "0.1.67"; },
            "m/jax.json: releases[35].builds[0].pip_extra_issues[0].versions[0]: 0.1.67 is not a release of the row",
            "list releases from the row's \"jax_versions\"" },
        { "a plugin wheel page on a jax build without a plugin", "jax.json",
            [](nlohmann::json& d) { d["releases"][17]["builds"][0]["plugin_wheel_page"] = true; },
            "m/jax.json: releases[17].builds[0].plugin_wheel_page: a wheel page for the plugin of a build without one",
            "drop it: a CUDA jaxlib is always served by JAX's wheel page" },
        { "a jax pip cuDNN pin on a build that brings no CUDA from pip", "jax.json",
            [](nlohmann::json& d) { d["releases"][26]["builds"][0]["pip_cudnn_min"] = "8.8"; },
            "m/jax.json: releases[26].builds[0].pip_cudnn_min: a pip cuDNN pin on a build whose extra brings no CUDA "
            "from pip",
            "drop it, or set \"pip_cuda\": true" },
        { "a jax pip cuDNN pin no higher than the build's floor", "jax.json",
            [](nlohmann::json& d) { d["releases"][15]["builds"][1]["pip_cudnn_min"] = "8.6"; },
            "m/jax.json: releases[15].builds[1].pip_cudnn_min: not above the build's cuDNN floor 8.6",
            "drop it: the build's own floor already says so" },
        { "a jax extra alias of no build's extra", "jax.json",
            [](nlohmann::json& d) { d["releases"][11]["extra_aliases"][1]["means"] = "cuda12-pip"; },
            "m/jax.json: releases[11].extra_aliases[1].means: 'cuda12-pip' is not the extra of one of the row's builds",
            "name cuda12 or cuda12_local" },
        { "a jax extra alias naming a build's own extra", "jax.json",
            [](nlohmann::json& d) { d["releases"][11]["extra_aliases"][0]["name"] = "cuda12_local"; },
            "m/jax.json: releases[11].extra_aliases[0].name: 'cuda12_local' is a build's own extra", "drop the alias" },
        { "an architecture deprecated after its last toolkit", "cuda.json",
            [](nlohmann::json& d) {
                for (auto& arch : d["architectures"])
                    if (arch["compute_capability"] == "6.1")
                        arch["deprecated_from"] = "13.0";
            },
            "m/cuda.json: architectures[16].deprecated_from: CUDA 13.0 is outside the toolkits that target it (8.0 to "
            "12.9)",
            "name the release whose notes deprecate the architecture" },
        { "tensorflow's free-threaded range with a misspelt field", "tensorflow.json",
            [](nlohmann::json& d) {
                d["free_threaded"]["none_thru"] = d["free_threaded"]["none_through"];
                d["free_threaded"].erase("none_through");
            },
            "m/tensorflow.json: free_threaded.none_thru: unknown field", "did you mean \"none_through\"?" },
        { "tensorflow's free-threaded range ending at no version", "tensorflow.json",
            [](nlohmann::json& d) { d["free_threaded"]["none_through"] = "two"; },
            "m/tensorflow.json: free_threaded.none_through: 'two' is not a PEP 440 version",
            "write it as 2.1.2, 2.1.2+cu118 or 2.2.0rc1" },
        { "a jax known issue naming a release outside its row", "jax.json",
            [](nlohmann::json& d) { d["releases"][11]["known_issues"][0]["versions"][0] = "0.4.30"; },
            "m/jax.json: releases[11].known_issues[0].versions[0]: 0.4.30 is not a release of the row",
            "list releases from the row's \"versions\"" },
        { "the Windows driver numbering without a source", "driver_releases.json",
            [](nlohmann::json& d) { d["windows_numbering"]["source"] = nlohmann::json::array(); },
            "m/driver_releases.json: windows_numbering.source: no source", "every fact names where it comes from" },
        { "unknown top-level field", "tensorflow.json",
            [](nlohmann::json& d) { d["relases"] = nlohmann::json::array(); },
            "m/tensorflow.json: relases: unknown field", "did you mean \"releases\"?" },
    }));
    CAPTURE(row.what);
    Error e = load_error(with_edit(row.file, row.edit));
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK(e.message() == row.message);
    CHECK(e.hint() == row.hint);
}

TEST_CASE("python-build-standalone builds: one per CPython minor, the release's assets and their sha256", "[matrix]")
{
    const Matrix& m = Matrix::embedded();
    std::vector<std::string> versions;
    for (const auto& build : m.python_runtimes())
        versions.push_back(build.python.text());
    CHECK(versions == std::vector<std::string> { "3.13.11", "3.12.12", "3.11.14", "3.10.19", "3.9.25", "3.8.20" });

    const PythonRuntimeBuild* build = m.python_runtime(PythonVersion::parse("3.10"));
    REQUIRE(build);
    CHECK(build->python.text() == "3.10.19");
    CHECK(build->release == "20251031");
    CHECK(build->archives.at("x86_64").url
        == "https://github.com/astral-sh/python-build-standalone/releases/download/20251031/"
           "cpython-3.10.19+20251031-x86_64-unknown-linux-gnu-install_only.tar.gz");
    CHECK(build->archives.at("x86_64").sha256 == "fb1caac917d7b6497bb6f5950da5f1e48d05c43a498948dd97f85760c4382d9f");
    CHECK(build->archives.at("aarch64").sha256 == "f77a8a8aa77f3f943126fa9215a25309da4bf20398fc8f4b4eec54b5fc7570ef");
    CHECK(build->provenance.confidence == Confidence::secondary);
    CHECK(m.python_runtime(PythonVersion::parse("3.8"))->release == "20241002");
    CHECK_FALSE(m.python_runtime(PythonVersion::parse("3.7")));
}

TEST_CASE("an alias that names two GPUs is refused", "[matrix]")
{
    Files files = with_edit("gpus.json", [](nlohmann::json& d) {
        for (auto& gpu : d["gpus"])
            if (gpu["name"] == "NVIDIA GeForce RTX 4080")
                gpu["aliases"].push_back("4090");
    });
    Error e = load_error(files);
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK(e.message() == "m/gpus.json: '4090' names both NVIDIA GeForce RTX 4080 and NVIDIA GeForce RTX 4090");
    CHECK(e.hint() == "keep the alias on one row only");
}

TEST_CASE("a JSON syntax error names the file, line and column", "[matrix]")
{
    auto [text, position] = GENERATE(table<std::string, std::string>({
        { "{]", "1:2" },
        { "{\n]", "2:1" },
        { "{\n  \"format\": \"dlenv.compat/v1\",\n  \"sources\": {,\n}\n", "3:15" },
        // An unexpected token is placed at its last character, as nlohmann::json reads it.
        { "{\n  \"format\": \"dlenv.compat/v1\"\n  \"sources\": {}\n}\n", "3:11" },
    }));
    CAPTURE(text);
    Files files = real_files();
    files["cudnn.json"] = text;
    Error e = load_error(files);
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK_THAT(e.message(), Catch::Matchers::StartsWith("m/cudnn.json:" + position + ": not valid JSON: "));
    CHECK(e.hint() == "fix the syntax at that position");
}

TEST_CASE("NVIDIA's images of a CUDA line are those of its newest release, per architecture", "[matrix]")
{
    const Matrix& m = Matrix::embedded();
    const NvidiaImageRelease* release = m.nvidia_image_release(CudaVersion::parse("12.1"));
    REQUIRE(release);
    CHECK(release->cuda.text() == "12.1.1");
    CHECK(m.nvidia_image_release(CudaVersion::parse("12.1.0")) == release);
    CHECK(release->require_cuda_for("amd64")->value.starts_with("cuda>=12.1 brand=tesla,driver>=470,driver<471 "));
    CHECK(release->require_cuda_for("arm64")->value == "cuda>=12.1");
    CHECK(release->require_cuda_for("ppc64le")->value == "cuda>=12.1");
    CHECK_FALSE(release->require_cuda_for("s390x"));
    CHECK(m.nvidia_image_release(CudaVersion::parse("13.0"))->cuda.text() == "13.0.2");
    CHECK(m.nvidia_image_release(CudaVersion::parse("13.0"))->require_cuda_for("amd64")->provenance.confidence
        == Confidence::secondary);
    CHECK(m.nvidia_image_release(CudaVersion::parse("11.7"))->cuda.text() == "11.7.1");
    CHECK(m.nvidia_image_release(CudaVersion::parse("10.2"))->require_cuda_for("ppc64le")->value == "cuda>=10.2");
    CHECK(m.nvidia_image_release(CudaVersion::parse("12.3"))->cuda.text() == "12.3.2");
    // its arm64 stage's "CUDA>=12.3" is left to the derived rule
    CHECK_FALSE(m.nvidia_image_release(CudaVersion::parse("12.3"))->require_cuda_for("arm64"));
    CHECK_FALSE(m.nvidia_image_release(CudaVersion::parse("13.1")));
}

TEST_CASE("a missing matrix file is reported as not found", "[matrix]")
{
    Files files = real_files();
    files.erase("gpus.json");
    Error e = load_error(files);
    CHECK(e.code() == ErrorCode::not_found);
    CHECK(e.message() == "m/gpus.json: missing");
}

TEST_CASE("a matrix directory that does not exist is reported as not found", "[matrix]")
{
    try {
        Matrix::load_directory("/nonexistent/compat");
        FAIL("expected an Error");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::not_found);
        CHECK(e.message() == "matrix directory /nonexistent/compat does not exist");
        CHECK(e.hint() == "pass a directory holding the files of profiles/compat/");
    }
}

TEST_CASE("dense tensor-core peaks are loaded with their own sources, and absent where unsourced", "[matrix]")
{
    const Matrix& m = Matrix::embedded();
    struct Row {
        std::string gpu;
        double fp16;
        std::optional<double> bf16;
        std::string source_url;
    };
    auto row = GENERATE(values<Row>({
        { "NVIDIA A100-SXM4-80GB", 312, 312,
            "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
            "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf" },
        { "NVIDIA H100 80GB HBM3", 989.4, 989.4, "https://glennklockwood.com/garden/processors/h100" },
        { "NVIDIA H100 PCIe", 756.5, 756.5, "https://archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html" },
        { "Tesla V100-SXM2-32GB", 125, std::nullopt, "https://developer.nvidia.com/programming-tensor-cores-cuda-9-0" },
    }));
    CAPTURE(row.gpu);
    const Gpu* gpu = m.find_gpu(row.gpu);
    REQUIRE(gpu);
    REQUIRE(gpu->tensor_tflops);
    CHECK(gpu->tensor_tflops->fp16 == row.fp16);
    CHECK(gpu->tensor_tflops->bf16 == row.bf16);
    CHECK(gpu->tensor_tflops->provenance.sources.front()->url == row.source_url);
    CHECK(m.find_gpu("NVIDIA GeForce RTX 4090")->tensor_tflops == std::nullopt);
}

TEST_CASE("a tensor peak with an unknown field or no source is refused, naming the field", "[matrix]")
{
    auto typo = with_edit("gpus.json", [](nlohmann::json& doc) {
        for (auto& gpu : doc["gpus"])
            if (gpu["name"] == "NVIDIA H100 PCIe")
                gpu["tensor_tflops"]["fp16_dense"] = 1;
    });
    CHECK_THAT(load_error(typo).message(), Catch::Contains("tensor_tflops"));
    auto unsourced = with_edit("gpus.json", [](nlohmann::json& doc) {
        for (auto& gpu : doc["gpus"])
            if (gpu["name"] == "NVIDIA H100 PCIe")
                gpu["tensor_tflops"]["source"] = nlohmann::json::array();
    });
    CHECK_THAT(load_error(unsourced).message(), Catch::Contains("no source"));
}

TEST_CASE("the components of a CUDA release carry their own versions, sonames and files", "[matrix]")
{
    const matrix::Matrix& m = matrix::Matrix::embedded();
    const matrix::CudaComponents* cuda = m.cuda_components(CudaVersion::parse("11.8.0"));
    REQUIRE(cuda);
    auto cublas = std::find_if(cuda->libraries.begin(), cuda->libraries.end(),
        [](const matrix::CudaLibrary& library) { return library.component == "libcublas"; });
    REQUIRE(cublas != cuda->libraries.end());
    CHECK(cublas->version == "11.11.3.6");
    CHECK(cublas->flavour == matrix::ImageFlavour::runtime);
    REQUIRE(cublas->files.size() == 2);
    CHECK(cublas->files[1].soname == "libcublasLt.so.11");
    CHECK(cublas->files[1].file == "libcublasLt.so.11.11.3.6");
    CHECK(cuda->libraries[0].component == "cuda_cudart");
    CHECK(cuda->libraries[0].flavour == matrix::ImageFlavour::base);
    CHECK_FALSE(m.cuda_components(CudaVersion::parse("11.8.1")));

    const matrix::CudnnLibraries* cudnn9 = m.cudnn_libraries(9);
    REQUIRE(cudnn9);
    CHECK(cudnn9->shim == "libcudnn.so.9");
    CHECK(cudnn9->loaded.size() == 7);
    CHECK(m.cudnn_libraries(8)->loaded.front() == "libcudnn_ops_infer.so.8");
    CHECK_FALSE(m.cudnn_libraries(7));
}

// --- Driver releases -------------------------------------------------------------

TEST_CASE("a driver branch lists NVIDIA's Linux releases, with the drivers CUDA runfiles bundle", "[matrix]")
{
    const Matrix& m = Matrix::embedded();
    const DriverReleases* r535 = m.driver_releases(535);
    REQUIRE(r535);
    CHECK(r535->lists(DriverVersion::parse("535.154.05")));
    CHECK_FALSE(r535->lists(DriverVersion::parse("535.154.02"))); // a vGPU host driver's number
    CHECK(r535->knows(DriverVersion::parse("535.154.02")));
    CHECK(r535->complete_through->text() == "535.288.01");
    // CUDA 12.2 Update 1's runfile driver has no tag of its own; cuda.json adds it.
    CHECK(r535->lists(DriverVersion::parse("535.86.09")));
    CHECK(m.driver_releases(560)->lists(DriverVersion::parse("560.35.05")));
    CHECK(std::is_sorted(r535->releases.begin(), r535->releases.end()));
    CHECK(r535->provenance.cite()
        == "https://github.com/NVIDIA/open-gpu-kernel-modules/tags | https://github.com/NVIDIA/nvidia-settings/tags");
    // nvidia-settings' tags carry what came after the open kernel modules' snapshot, and the
    // branches before them
    CHECK(r535->lists(DriverVersion::parse("535.309.01")));
    const DriverReleases* r390 = m.driver_releases(390);
    REQUIRE(r390);
    CHECK(r390->releases.front().text() == "390.12");
    CHECK(r390->releases.back().text() == "390.157");
    CHECK(r390->lists(DriverVersion::parse("390.46"))); // CUDA 9.1's runfile driver, tagged nowhere
    CHECK_FALSE(r390->complete_through);
    CHECK(r390->provenance.cite() == "https://github.com/NVIDIA/nvidia-settings/tags");
}

TEST_CASE("the releases nearest a driver share its first two parts, else lie on either side of it", "[matrix]")
{
    const DriverReleases& r535 = *Matrix::embedded().driver_releases(535);
    auto texts = [](const std::vector<DriverVersion>& versions) {
        std::vector<std::string> out;
        for (const auto& v : versions)
            out.push_back(v.text());
        return out;
    };
    CHECK(texts(r535.nearest(DriverVersion::parse("535.154.02"))) == std::vector<std::string> { "535.154.05" });
    CHECK(texts(r535.nearest(DriverVersion::parse("535.104.99")))
        == std::vector<std::string> { "535.104.05", "535.104.12" });
    CHECK(texts(r535.nearest(DriverVersion::parse("535.150.01")))
        == std::vector<std::string> { "535.146.02", "535.154.05" });
}

TEST_CASE("past its last listed release, or in a partial list, a driver's release is not known", "[matrix]")
{
    const Matrix& m = Matrix::embedded();
    const DriverReleases& r595 = *m.driver_releases(595);
    CHECK(r595.complete_through->text() == "595.45.04");
    CHECK(r595.lists(DriverVersion::parse("595.71.05"))); // CUDA 13.2 Update 2's runfile driver
    CHECK_FALSE(r595.knows(DriverVersion::parse("595.60.01")));
    const DriverReleases& r450 = *m.driver_releases(450);
    CHECK_FALSE(r450.complete_through);
    CHECK(r450.lists(DriverVersion::parse("450.80.02")));
    CHECK_FALSE(r450.knows(DriverVersion::parse("450.59")));
    CHECK(m.driver_releases(620) == nullptr);
}

TEST_CASE("a malformed driver release list is refused, naming the field and the fix", "[matrix]")
{
    auto [edit, message, hint] = GENERATE(table<std::function<void(nlohmann::json&)>, std::string, std::string>({
        { [](nlohmann::json& d) { d["branches"][0]["releases"][0] = "590.44.01"; },
            "m/driver_releases.json: branches[0].releases[0]: release 590.44.01 is not of branch 610",
            "move it to the row of branch 590" },
        { [](nlohmann::json& d) { std::swap(d["branches"][0]["releases"][0], d["branches"][0]["releases"][1]); },
            "m/driver_releases.json: branches[0].releases[1]: release 610.43.02 is out of order",
            "list the releases oldest first, each once" },
        { [](nlohmann::json& d) { d["branches"][0]["complete_through"] = "610.43.99"; },
            "m/driver_releases.json: branches[0].complete_through: complete_through 610.43.99 is not one of the "
            "branch's releases",
            "name the newest release the list is complete to" },
    }));
    Error e = load_error(with_edit("driver_releases.json", edit));
    CHECK(e.message() == message);
    CHECK(e.hint() == hint);
}

TEST_CASE("the branches with Linux releases on record span R367 to R610, whatever their order in the file", "[matrix]")
{
    const auto span = Matrix::embedded().driver_release_span();
    REQUIRE(span);
    CHECK(span->oldest == 367);
    CHECK(span->newest == 610);
    Matrix reversed = Matrix::load(with_edit("driver_releases.json",
                                       [](nlohmann::json& d) {
                                           auto& branches = d["branches"];
                                           std::reverse(branches.begin(), branches.end());
                                       }),
        "m");
    REQUIRE(reversed.driver_release_span());
    CHECK(reversed.driver_release_span()->oldest == 367);
    CHECK(reversed.driver_release_span()->newest == 610);
}

TEST_CASE("a Windows driver belongs to the newest branch at or below its number", "[matrix]")
{
    const Matrix& m = Matrix::embedded();
    REQUIRE(m.windows_driver_numbering());
    auto branch = [&](const char* windows) { return m.windows_driver_branch(DriverVersion::parse(windows)); };
    CHECK(branch("582.66") == 580u); // R580's security releases for Pascal
    CHECK(branch("591.44") == 590u);
    CHECK(branch("573.48") == 570u);
    CHECK(branch("474.44") == 470u); // Kepler's last Windows releases
    CHECK(branch("496.13") == 495u);
    CHECK(branch("520.06") == 520u);
    CHECK_FALSE(branch("341.95")); // below every branch on record
    CHECK(m.windows_driver_numbering()->provenance.cite()
        == "https://docs.nvidia.com/datacenter/tesla/ | https://github.com/keylase/nvidia-patch/issues/1086");

    Matrix without
        = Matrix::load(with_edit("driver_releases.json", [](nlohmann::json& d) { d.erase("windows_numbering"); }), "m");
    CHECK_FALSE(without.windows_driver_branch(DriverVersion::parse("582.66")));
}

TEST_CASE("a Linux/Windows driver pair the Windows numbering misplaces is refused", "[matrix]")
{
    Files files = with_edit("cuda.json", [](nlohmann::json& d) {
        for (auto& toolkit : d["toolkits"])
            if (toolkit["version"] == "12.4.0")
                toolkit["driver_windows"] = "556.12";
    });
    Error e = load_error(files);
    CHECK(e.message()
        == "m/driver_releases.json: windows_numbering: cuda.json's CUDA 12.4.0 pairs Linux 550.54.14 with Windows "
           "556.12, which the numbering reads as branch 555");
    CHECK(e.hint() == "correct the pair, or the numbering if NVIDIA has changed it");
}

// --- Update releases, NCCL pins and cuDNN support notes ------------------------------

TEST_CASE("CUDA 12.3 Update 2 is a release of the 12.3 line, whose floor stays 12.3 GA's driver", "[matrix]")
{
    const Matrix& m = Matrix::embedded();
    auto releases = m.toolkit_releases(CudaVersion::parse("12.3.2"));
    REQUIRE(releases.size() == 1);
    CHECK(releases.front()->name == "12.3 Update 2");
    CHECK_FALSE(releases.front()->driver_linux);
    CHECK(version_text(m.first_toolkit(CudaVersion::parse("12.3.2"))) == "545.23.06");
}

TEST_CASE("torch 2.4 cu121 and 2.9 cu128 carry the NCCL their PyPI wheels pin", "[matrix]")
{
    auto nccl_of = [](const std::string& line, const std::string& tag) -> std::string {
        for (const auto& release : Matrix::embedded().torch_releases())
            for (const auto& variant : release.variants)
                if (release.line == line && variant.tag == tag)
                    return variant.nccl ? variant.nccl->text() : "(none)";
        return "(no variant)";
    };
    CHECK(nccl_of("2.4", "cu121") == "2.20.5");
    CHECK(nccl_of("2.9", "cu128") == "2.27.5");
}

TEST_CASE("every torch 2.4-2.9 variant holds its wheels' NCCL pin, or none where no pin is on record", "[matrix]")
{
    std::map<std::string, std::string> nccl; // "2.6 cu124" -> "2.21.5", "(none)" when not on record
    for (const auto& release : Matrix::embedded().torch_releases())
        for (const auto& variant : release.variants)
            if (auto line = Pep440Version::parse(release.line + ".0");
                Pep440Version::parse("2.4.0") <= line && line <= Pep440Version::parse("2.9.0"))
                nccl[release.line + " " + variant.tag] = variant.nccl ? variant.nccl->text() : "(none)";
    CHECK(nccl
        == std::map<std::string, std::string> { { "2.4 cu118", "2.20.5" }, { "2.4 cu121", "2.20.5" },
            { "2.4 cu124", "2.20.5" }, { "2.5 cu118", "2.21.5" }, { "2.5 cu121", "2.21.5" }, { "2.5 cu124", "2.21.5" },
            { "2.6 cu118", "2.21.5" }, { "2.6 cu124", "2.21.5" }, { "2.6 cu126", "2.21.5" }, { "2.7 cu118", "2.21.5" },
            { "2.7 cu126", "2.26.2" }, { "2.7 cu128", "2.26.2" }, { "2.8 cu126", "2.27.3" }, { "2.8 cu128", "2.27.3" },
            { "2.8 cu129", "(none)" }, { "2.9 cu126", "2.27.5" }, { "2.9 cu128", "2.27.5" }, { "2.9 cu129", "(none)" },
            { "2.9 cu130", "2.27.7" } });
}

TEST_CASE("tensorflow's and-cuda NCCL requirement is held where sourced, with its own sources", "[matrix]")
{
    auto text = [](const TensorflowRelease& release) -> std::string {
        if (!release.nccl)
            return "(none)";
        return release.nccl->versions.describe() + " (" + std::string(to_string(release.nccl->provenance.confidence))
            + ")";
    };
    std::map<std::string, std::string> nccl; // "2.16" -> "2.19.3 (secondary)", "(none)" when not on record
    for (const auto& release : Matrix::embedded().tensorflow_releases())
        if (!release.pip_extra.empty())
            nccl[release.line] = text(release);
    CHECK(nccl
        == std::map<std::string, std::string> { { "2.14", "(none)" }, { "2.15", "(none)" },
            { "2.16", "2.19.3 (secondary)" }, { "2.17", "(none)" }, { "2.18", "(none)" },
            { "2.19", "2.25.1 (unconfirmed)" }, { "2.20", "2.25.1-2.99 (secondary)" }, { "2.21", "(none)" } });
    for (const auto& release : Matrix::embedded().tensorflow_releases())
        if (release.line == "2.16") {
            REQUIRE(release.nccl);
            CHECK(release.nccl->provenance.sources.front()->url == "https://github.com/devanshkv/fetch/pull/35");
            CHECK(release.provenance.confidence == Confidence::confirmed); // the row's own facts stay confirmed
        }
}

TEST_CASE("the PyPI wheel of torch 2.8 and 2.9 is the CUDA 12.8 build, and no other build of theirs is", "[matrix]")
{
    std::map<std::string, bool> defaults;
    for (const auto& release : Matrix::embedded().torch_releases())
        if (release.line == "2.8" || release.line == "2.9")
            for (const auto& variant : release.variants)
                defaults[release.line + " " + variant.tag] = variant.pypi_default;
    CHECK(defaults
        == std::map<std::string, bool> { { "2.8 cu126", false }, { "2.8 cu128", true }, { "2.8 cu129", false },
            { "2.9 cu126", false }, { "2.9 cu128", true }, { "2.9 cu129", false }, { "2.9 cu130", false } });
}

TEST_CASE("a cuDNN release's support notes are data: deprecated architectures and recommended CUDA", "[matrix]")
{
    const Matrix& m = Matrix::embedded();
    auto release = [&](const std::string& version) {
        for (const auto* r : m.cudnn_releases_matching(CudnnVersion::parse(version)))
            if (r->version.text() == version)
                return r;
        FAIL("no cuDNN " + version);
        return static_cast<const CudnnRelease*>(nullptr);
    };
    CHECK(release("9.10.2")->deprecated_architectures == std::vector<std::string> { "Maxwell", "Pascal", "Volta" });
    const auto& recommended = release("9.5.1")->recommended;
    REQUIRE(recommended.size() == 2);
    CHECK(recommended[0].architectures == std::vector<std::string> { "Maxwell", "Pascal" });
    CHECK(recommended[0].cuda.describe() == "11.8");
    CHECK(recommended[1].cuda.describe() == "12.6");
    CHECK(release("9.17.0")->recommended.empty());
}

TEST_CASE("a cuDNN note naming an architecture cuda.json does not know is refused", "[matrix]")
{
    Error e = load_error(with_edit("cudnn.json", [](nlohmann::json& d) {
        for (auto& r : d["releases"])
            if (r["version"] == "9.10.2")
                r["deprecated_architectures"][0] = "Tesla";
    }));
    CHECK_THAT(e.message(), Catch::Matchers::EndsWith(".deprecated_architectures[0]: unknown architecture 'Tesla'"));
    CHECK(e.hint() == "name one of cuda.json's architectures (\"Pascal\")");
}
