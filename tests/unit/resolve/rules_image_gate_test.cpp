// check's image gate: the NVIDIA_REQUIRE_CUDA an image of the stack carries, evaluated for
// the query's driver and GPUs, against the same evaluator verify's gpu tier uses.

#include "matrix/matrix.h"
#include "resolve/check.h"
#include "resolve/image_require_cuda.h"
#include "resolve/require_cuda.h"

#include <catch2/catch.hpp>

#include <set>

using namespace dlenv;
using namespace dlenv::resolve;
using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

namespace {

const matrix::Matrix& embedded()
{
    return matrix::Matrix::embedded();
}

Report check_of(
    const std::string& cuda, const std::string& driver, std::vector<std::string> gpus, bool forward_compat = false)
{
    Query query;
    query.cuda = CudaVersion::parse(cuda);
    query.driver = DriverVersion::parse(driver);
    query.gpus = std::move(gpus);
    query.forward_compat = forward_compat;
    return check(embedded(), query);
}

const Finding* gate_finding(const Report& report)
{
    for (const auto& f : report.findings)
        if (f.code == "image-require-cuda")
            return &f;
    return nullptr;
}

std::string toolkit_source(const std::string& line)
{
    return embedded().first_toolkit(CudaVersion::parse(line))->provenance.cite();
}

std::string nvidia_source(const std::string& line)
{
    return image_require_cuda(embedded(), CudaVersion::parse(line), "amd64").source;
}

} // namespace

TEST_CASE("R450 on an 11.8 image runs under minor-version compatibility, but NVIDIA's gate refuses it", "[resolve]")
{
    Report r = check_of("11.8", "450.80.02", { "A100 80GB SXM4" });
    CHECK(r.verdict() == Verdict::fail);
    const Finding* gate = gate_finding(r);
    REQUIRE(gate);
    CHECK(gate->verdict == Verdict::fail);
    CHECK(gate->message
        == "the image dlenv builds for CUDA 11.8 will not start on driver 450.80.02 under the NVIDIA container "
           "toolkit: its NVIDIA_REQUIRE_CUDA (NVIDIA's, of its CUDA 11.8.0 images for amd64) refuses it for tesla "
           "GPUs: it supports CUDA up to 11.0; CUDA 11.8 needs driver >= 520.61.05 ("
            + toolkit_source("11.8") + "), and no brand/driver alternative matches this host");
    CHECK(gate->why
        == "https://gitlab.com/nvidia/container-images/cuda/-/tree/7ad4b0af70e5af9fb82ab990df382a0dd7d494dc/dist/11.8.0"
           " | https://gitlab.com/nvidia/container-images/cuda/-/blob/7ad4b0af70e5af9fb82ab990df382a0dd7d494dc/doc/"
           "supported-tags.md");
    CHECK(r.suggestions.back()
        == "upgrade the driver to >= 520.61.05, which the image's NVIDIA_REQUIRE_CUDA admits on every GPU");
    // the driver finding itself keeps its words
    CHECK(r.findings.front().code == "driver-minor-version-compat");
}

TEST_CASE("with no GPU named, a driver no brand alternative admits is refused whatever the brand", "[resolve]")
{
    Report r = check_of("11.8", "450.80.02", {});
    CHECK(r.verdict() == Verdict::fail);
    REQUIRE(gate_finding(r));
    CHECK(gate_finding(r)->message
        == "the image dlenv builds for CUDA 11.8 will not start on driver 450.80.02 under the NVIDIA container "
           "toolkit: its NVIDIA_REQUIRE_CUDA (NVIDIA's, of its CUDA 11.8.0 images for amd64) refuses it whatever the "
           "GPU's brand: it supports CUDA up to 11.0; CUDA 11.8 needs driver >= 520.61.05 ("
            + toolkit_source("11.8") + "), and no brand/driver alternative matches this host");
}

TEST_CASE("with no GPU named, a driver only some brands admit is a warning naming them", "[resolve]")
{
    // a brand of every segment admits R470 on NVIDIA's 11.8 images: any GPU starts them
    Report every = check_of("11.8", "470.57.02", {});
    CHECK(every.verdict() == Verdict::warn); // minor-version compatibility
    REQUIRE(gate_finding(every));
    CHECK(gate_finding(every)->verdict == Verdict::ok);
    CHECK(gate_finding(every)->message
        == "the image dlenv builds for CUDA 11.8 starts on driver 470.57.02 under the NVIDIA container toolkit "
           "whatever the GPU: its NVIDIA_REQUIRE_CUDA (NVIDIA's, of its CUDA 11.8.0 images for amd64) admits it on the "
           "brands of every segment (tesla, unknown, nvidia, nvidiartx, geforce, geforcertx, quadro, quadrortx, titan, "
           "titanrtx)");
    CHECK(gate_finding(every)->why == nvidia_source("11.8"));
    // no GeForce term admits R565 on NVIDIA's 12.8 images (nvidia-container-toolkit#940)
    Report some = check_of("12.8", "565.77", {});
    REQUIRE(gate_finding(some));
    CHECK(gate_finding(some)->verdict == Verdict::warn);
    CHECK_THAT(gate_finding(some)->message,
        StartsWith("with no GPU named, the NVIDIA_REQUIRE_CUDA of the image dlenv builds for CUDA 12.8"));
    CHECK_THAT(gate_finding(some)->message, EndsWith(" GPUs: name --gpu to check"));
    CHECK_FALSE(Contains("geforce").match(gate_finding(some)->message));
}

TEST_CASE("a driver the gate admits gets an info finding saying for which GPUs", "[resolve]")
{
    Report tesla = check_of("11.8", "525.60.13", { "A100 80GB SXM4" });
    CHECK(tesla.verdict() == Verdict::ok);
    REQUIRE(gate_finding(tesla));
    CHECK(gate_finding(tesla)->verdict == Verdict::ok);
    CHECK(gate_finding(tesla)->message
        == "the image dlenv builds for CUDA 11.8 starts on driver 525.60.13 under the NVIDIA container toolkit: its "
           "NVIDIA_REQUIRE_CUDA (NVIDIA's, of its CUDA 11.8.0 images for amd64) accepts it for tesla GPUs");
    Report any = check_of("11.8", "535.104.05", {});
    REQUIRE(gate_finding(any));
    CHECK(gate_finding(any)->message
        == "the image dlenv builds for CUDA 11.8 starts on driver 535.104.05 under the NVIDIA container toolkit: its "
           "NVIDIA_REQUIRE_CUDA (NVIDIA's, of its CUDA 11.8.0 images for amd64) accepts it with no GPU named, so on "
           "any GPU");
    Report mixed = check_of("12.1", "525.60.13", { "RTX 4090", "A100 80GB SXM4", "RTX A6000" });
    REQUIRE(gate_finding(mixed));
    CHECK_THAT(
        gate_finding(mixed)->message, Catch::Matchers::EndsWith("accepts it for geforce and quadro and tesla GPUs"));
}

TEST_CASE("NVIDIA's 12.8 images admit no GeForce under minor-version compatibility", "[resolve]")
{
    Report r = check_of("12.8", "550.54.14", { "RTX 4090" });
    CHECK(r.verdict() == Verdict::fail);
    REQUIRE(gate_finding(r));
    CHECK(gate_finding(r)->message
        == "the image dlenv builds for CUDA 12.8 will not start on driver 550.54.14 under the NVIDIA container "
           "toolkit: its NVIDIA_REQUIRE_CUDA (NVIDIA's, of its CUDA 12.8.1 images for amd64) refuses it for geforce "
           "GPUs: it supports CUDA up to 12.4; CUDA 12.8 needs driver >= 570.26 ("
            + toolkit_source("12.8") + "), and no brand/driver alternative matches this host");
    CHECK(check_of("12.8", "550.54.14", { "A100 80GB SXM4" }).verdict() == Verdict::warn);
}

TEST_CASE("a line NVIDIA ships no image of in the matrix is gated by the derived rule, which says so", "[resolve]")
{
    // CUDA 13.1's derived rule names the data-center branch between its floor 580 and its 590: 580
    Report r = check_of("13.1", "580.95.05", { "T4" });
    CHECK(r.verdict() == Verdict::warn);
    REQUIRE(gate_finding(r));
    CHECK(gate_finding(r)->message
        == "the image dlenv builds for CUDA 13.1 starts on driver 580.95.05 under the NVIDIA container toolkit: its "
           "NVIDIA_REQUIRE_CUDA (derived by dlenv from CUDA 13.1's driver floors: the matrix has no NVIDIA image of "
           "that line) accepts it for tesla GPUs");
    // it rests on the line's release notes and the minor-version floor's page, each once
    CHECK(gate_finding(r)->why
        == "https://docs.nvidia.com/cuda/archive/13.1.0/cuda-toolkit-release-notes/index.html | "
           "https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html | "
           "https://docs.nvidia.com/deeplearning/sdk/cudnn-support-matrix/index.html");
    Report geforce = check_of("13.1", "580.95.05", { "RTX 3090" });
    CHECK(geforce.verdict() == Verdict::fail);
    CHECK(gate_finding(geforce)->verdict == Verdict::fail);
}

TEST_CASE("an end-of-life CUDA 11 line is gated by NVIDIA's last Dockerfiles of it, R470 for every brand", "[resolve]")
{
    // dist/11.7.1 at 7ad4b0af70e5: torch 2.0's cu117 build on a GeForce host with driver 470
    Report geforce = check_of("11.7", "470.82.01", { "RTX 3090" });
    REQUIRE(gate_finding(geforce));
    CHECK(gate_finding(geforce)->verdict == Verdict::ok);
    CHECK(gate_finding(geforce)->message
        == "the image dlenv builds for CUDA 11.7 starts on driver 470.82.01 under the NVIDIA container toolkit: its "
           "NVIDIA_REQUIRE_CUDA (NVIDIA's, of its CUDA 11.7.1 images for amd64) accepts it for geforce GPUs");
    // the R450-R460 terms were dropped as those branches reached end of life
    CHECK(gate_finding(check_of("11.7", "460.27.03", { "T4" }))->verdict == Verdict::fail);
}

TEST_CASE("the gate does not repeat a driver the driver rules already refuse", "[resolve]")
{
    Report r = check_of("12.1", "515.65.01", { "RTX 3090" });
    CHECK(r.verdict() == Verdict::fail);
    CHECK_FALSE(gate_finding(r));
}

// For every CUDA line of the matrix and every driver its toolkit and minor-version floors
// name: check's answer to "will the image start" is the gate's. They differ by design in two
// ways, each asserted where it occurs:
//  - the gate admits, check fails: the gate only decides whether the container starts. NVIDIA's
//    12.x images admit the R470 branch (they carry cuda-compat), which check counts only with
//    --forward-compat and only on data-center GPUs; and the gate knows no per-GPU driver floor
//    (an RTX 5090 needs 570.26). Check still reports the gate's acceptance as an info finding.
//  - with no GPU brand known, the gate refuses a driver that only brand alternatives admit;
//    check cannot know the host's brand, so it warns and names the brands that would start,
//    or, where a brand of every segment would, says the image starts on any GPU.
TEST_CASE("check's verdict on whether the image starts is the gate's, for every line and floor driver", "[resolve]")
{
    const matrix::Matrix& matrix = embedded();
    std::set<DriverVersion> drivers;
    for (const auto& toolkit : matrix.toolkits())
        if (toolkit.driver_linux)
            drivers.insert(*toolkit.driver_linux);
    for (const auto& floor : matrix.minor_version_floors())
        drivers.insert(floor.driver_linux);
    REQUIRE(drivers.size() >= 30);
    struct Gpus {
        std::vector<std::string> names;
        std::vector<std::string> brands;
        bool forward_compat;
    };
    const std::vector<Gpus> hosts {
        { {}, {}, false },
        { { "A100 80GB SXM4" }, { "tesla" }, false },
        { { "A100 80GB SXM4" }, { "tesla" }, true },
        { { "RTX 4090" }, { "geforce" }, false },
        { { "RTX A6000" }, { "quadro" }, false },
        { { "A100 80GB SXM4", "RTX 4090" }, { "tesla", "geforce" }, false },
    };
    std::size_t compared = 0, started_yet_failed = 0;
    for (const auto& line : matrix.toolkit_lines()) {
        if (!matrix.first_toolkit(CudaVersion::parse(line)))
            continue; // its releases carry no driver floor: the image's requirement is not derived
        const std::string value = image_require_cuda(matrix, CudaVersion::parse(line), "amd64").value;
        for (const auto& driver : drivers)
            for (const auto& host : hosts) {
                CAPTURE(line, driver.text(), host.names, host.forward_compat);
                Report r = check_of(line, driver.text(), host.names, host.forward_compat);
                bool admitted = !refuse_require_cuda(value, { driver, host.brands }, matrix);
                const Finding* gate = gate_finding(r);
                ++compared;
                if (admitted) {
                    REQUIRE(gate);
                    CHECK(gate->verdict == Verdict::ok);
                    if (r.verdict() == Verdict::fail)
                        ++started_yet_failed; // the driver or GPU rules fail: the first difference above
                    continue;
                }
                if (host.brands.empty() && gate && gate->verdict != Verdict::fail) {
                    // the second difference above: some brand, or every segment's, would start it
                    CHECK_FALSE(brands_admitted(value, { driver, {} }, matrix).empty());
                    continue;
                }
                CHECK(r.verdict() == Verdict::fail);
                CHECK((!gate || gate->verdict == Verdict::fail));
            }
    }
    CHECK(compared >= 20 * 30 * hosts.size());
    CHECK(started_yet_failed > 0);
    // one of them: R470 on a data-center GPU starts NVIDIA's 12.1 image, and check wants --forward-compat
    Report r470 = check_of("12.1", "470.57.02", { "A100 80GB SXM4" });
    CHECK(r470.verdict() == Verdict::fail);
    REQUIRE(gate_finding(r470));
    CHECK(gate_finding(r470)->verdict == Verdict::ok);
}
