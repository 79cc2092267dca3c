#include "core/error.h"
#include "refresh/pypi_releases.h"
#include "refresh/redist.h"
#include "refresh/torch_index.h"

#include <catch2/catch.hpp>

using namespace dlenv;
using namespace dlenv::refresh;

namespace {

// An index that lists the given file names, as PyTorch's torch page lists its wheels.
class ListedIndex : public pypi::Index {
public:
    explicit ListedIndex(std::vector<std::string> names)
        : m_names(std::move(names))
    {
    }
    const std::string& name() const override { return m_name; }
    std::vector<pypi::DistributionFile> files(const std::string& project) override
    {
        std::vector<pypi::DistributionFile> out;
        for (const auto& n : m_names)
            out.push_back({ project, n, "http://127.0.0.1:1/whl/x/" + n, std::string(64, 'a'), std::nullopt,
                std::nullopt, false, n.find("cp312-cp312-linux") != std::string::npos, "" });
        return out;
    }
    pypi::Metadata metadata(const pypi::DistributionFile&) override { throw Error(ErrorCode::io, "not served"); }

private:
    std::string m_name = "http://127.0.0.1:1/whl/";
    std::vector<std::string> m_names;
};

std::string error_of(const std::function<void()>& call)
{
    try {
        call();
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST_CASE("the torch index gives each line's versions, CUDA variants and CPython range", "[refresh]")
{
    ListedIndex index({ "torch-2.6.0+cu124-cp39-cp39-linux_x86_64.whl",
        "torch-2.6.0+cu124-cp312-cp312-linux_x86_64.whl", "torch-2.6.0+cu126-cp313-cp313t-linux_x86_64.whl",
        "torch-2.6.0+cpu-cp313-cp313-manylinux_2_28_aarch64.whl", "torch-2.6.0-cp312-none-macosx_11_0_arm64.whl",
        "torch-2.5.1+cu102-cp310-cp310-win_amd64.whl", "torch-2.5.1+rocm6.2-cp311-cp311-linux_x86_64.whl",
        "torch-2.7.0.dev20250101+cu128-cp312-cp312-linux_x86_64.whl" });
    auto lines = read_torch_index(index);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].line == "2.5");
    CHECK(lines[0].versions == std::vector { Pep440Version::parse("2.5.1") });
    CHECK(lines[0].variants.empty()); // win_amd64 and ROCm builds are no Linux CUDA variants
    CHECK(lines[0].pythons == std::vector { PythonVersion::parse("3.11") });
    CHECK(lines[1].line == "2.6");
    REQUIRE(lines[1].variants.size() == 2);
    CHECK(lines[1].variants.at("cu124").cuda.text() == "12.4");
    CHECK(lines[1].variants.at("cu124").metadata_wheel->filename == "torch-2.6.0+cu124-cp312-cp312-linux_x86_64.whl");
    CHECK_FALSE(lines[1].variants.at("cu126").metadata_wheel);
    // cp313t is free-threaded: not a Python of the range.
    CHECK(lines[1].pythons == std::vector { PythonVersion::parse("3.9"), PythonVersion::parse("3.12") });
}

TEST_CASE("a torch index entry that is no wheel name is refused naming the index and the file", "[refresh]")
{
    ListedIndex index({ "torch-2.6.0+cu124.whl" });
    CHECK_THAT(error_of([&] { read_torch_index(index); }),
        Catch::StartsWith("http://127.0.0.1:1/whl/torch/: file http://127.0.0.1:1/whl/x/torch-2.6.0+cu124.whl: "));
}

TEST_CASE("a redistrib manifest gives its release, date and bundled driver", "[refresh]")
{
    auto release
        = parse_redistrib(R"({"release_date": "2024-04-03", "release_label": "12.4.1", "release_product": "cuda",
        "nvidia_driver": {"name": "NVIDIA Linux Driver", "version": "550.54.15"}})",
            "http://h/redistrib_12.4.1.json", CudaVersion::parse("12.4.1"));
    CHECK(release.version.text() == "12.4.1");
    CHECK(release.release_date == "2024-04-03");
    CHECK(release.bundled_driver->text() == "550.54.15");
}

TEST_CASE("a redistrib manifest that is not the release asked for is refused naming the URL and field", "[refresh]")
{
    const std::string url = "http://h/redistrib_12.4.1.json";
    auto parse = [&](const std::string& body) { parse_redistrib(body, url, CudaVersion::parse("12.4.1")); };
    CHECK(error_of([&] { parse(R"({"release_label": "12.4.2"})"); })
        == url + ": release_label: expected 12.4.1, got '12.4.2'");
    CHECK(error_of([&] { parse(R"({"release_label": 12})"); })
        == url + ": release_label: expected a string, got 12 (number)");
    CHECK(error_of([&] { parse(R"({"release_label": "12.4.1", "nvidia_driver": {"version": "r550"}})"); })
        == url + ": nvidia_driver.version: 'r550' is not a driver version");
    CHECK_THAT(error_of([&] { parse(std::string(100, '[') + std::string(100, ']')); }), Catch::StartsWith(url + ": "));
}

TEST_CASE("PyPI's releases are the final ones with a file not yanked, oldest first", "[refresh]")
{
    auto releases = parse_pypi_releases(R"({"info": {"name": "jax"}, "releases": {
        "0.4.31": [{"filename": "jax-0.4.31-py3-none-any.whl", "yanked": false}],
        "0.4.30": [{"filename": "jax-0.4.30-py3-none-any.whl", "yanked": false}],
        "0.4.29": [{"filename": "jax-0.4.29-py3-none-any.whl", "yanked": true}],
        "0.5.0rc1": [{"filename": "jax-0.5.0rc1-py3-none-any.whl", "yanked": false}],
        "0.1.0": []}})",
        "http://h/pypi/jax/json");
    CHECK(releases == std::vector { Pep440Version::parse("0.4.30"), Pep440Version::parse("0.4.31") });
}

TEST_CASE("a PyPI document that is not PyPI's is refused naming the URL and field", "[refresh]")
{
    const std::string url = "http://h/pypi/jax/json";
    CHECK(error_of([&] { parse_pypi_releases(R"({"releases": []})", url); })
        == url + ": releases: expected an object of versions");
    CHECK(error_of([&] { parse_pypi_releases(R"({"releases": {"latest": []}})", url); })
        == url + ": releases.latest: 'latest' is not a PEP 440 version");
    CHECK(error_of([&] { parse_pypi_releases(R"({"releases": {"1.0": [{"yanked": "no"}]}})", url); })
        == url + ": releases.1.0[0].yanked: expected true or false, got \"no\" (string)");
}
