#include "core/error.h"
#include "resolve/check.h"
#include "resolve/require_cuda.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

std::optional<std::string> refusal(
    const std::string& requirement, const std::string& driver, std::vector<std::string> brands)
{
    return resolve::refuse_require_cuda(
        requirement, { DriverVersion::parse(driver), std::move(brands) }, matrix::Matrix::embedded());
}

const std::string k_cu121 = "cuda>=12.1 brand=tesla,driver>=470,driver<471 brand=tesla,driver>=525,driver<526";

} // namespace

TEST_CASE("a driver that supports the image's CUDA may start it", "[resolve]")
{
    CHECK_FALSE(refusal(k_cu121, "535.104.05", { "geforce" }));
    CHECK_FALSE(refusal("cuda>=11.8", "520.61.05", {}));
}

TEST_CASE("an older datacenter driver starts the image through a brand alternative", "[resolve]")
{
    CHECK_FALSE(refusal(k_cu121, "470.57.02", { "tesla" }));
    CHECK_FALSE(refusal(k_cu121, "525.60.13", { "tesla" }));
}

TEST_CASE("a refusal says what the driver supports and what the image needs, citing the matrix", "[resolve]")
{
    auto refused = refusal(k_cu121, "470.57.02", { "geforce" });
    REQUIRE(refused);
    CHECK(*refused
        == "it supports CUDA up to 11.4; CUDA 12.1 needs driver >= 530.30.02 ("
            + matrix::Matrix::embedded().first_toolkit(CudaVersion::parse("12.1"))->provenance.cite()
            + "), and no brand/driver alternative matches this host");
}

TEST_CASE("a constraint of another shape is refused as bad input", "[resolve]")
{
    try {
        refusal("cuda~12", "535.104.05", {});
        FAIL("read cuda~12");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(e.message() == "NVIDIA_REQUIRE_CUDA: cannot read the constraint \"cuda~12\"");
    }
}

TEST_CASE("NVIDIA's 11.8 and 12.1 images start on the drivers check says run those lines", "[resolve]")
{
    const matrix::Matrix& matrix = matrix::Matrix::embedded();
    struct Case {
        std::string cuda;
        std::string driver;
        std::string gpu;
        std::string brand;
    };
    auto c = GENERATE(values<Case>({
        { "12.1", "525.60.13", "H100 SXM5", "tesla" },
        { "12.1", "525.60.13", "RTX 3090", "geforce" },
        { "11.8", "470.57.02", "A100 80GB SXM4", "tesla" },
        { "11.8", "470.57.02", "RTX 3090", "geforce" },
    }));
    CAPTURE(c.cuda, c.driver, c.gpu);
    resolve::Query query;
    query.cuda = CudaVersion::parse(c.cuda);
    query.driver = DriverVersion::parse(c.driver);
    query.gpus = { c.gpu };
    resolve::Report report = resolve::check(matrix, query);
    CHECK(report.verdict() == Verdict::warn); // runs, under minor-version compatibility
    const std::string& nvidia = matrix.nvidia_image_release(*query.cuda)->require_cuda_for("amd64")->value;
    CHECK_FALSE(refusal(nvidia, c.driver, { c.brand }));
}

TEST_CASE("NVIDIA's 12.1 images refuse a driver of neither their branches nor newer, as check does", "[resolve]")
{
    const matrix::Matrix& matrix = matrix::Matrix::embedded();
    resolve::Query query;
    query.cuda = CudaVersion::parse("12.1");
    query.driver = DriverVersion::parse("515.65.01");
    query.gpus = { "RTX 3090" };
    CHECK(resolve::check(matrix, query).verdict() == Verdict::fail);
    CHECK(refusal(
        matrix.nvidia_image_release(*query.cuda)->require_cuda_for("amd64")->value, "515.65.01", { "geforce" }));
}

TEST_CASE("every GPU given to the container must pass with its own brand", "[resolve]")
{
    CHECK_FALSE(refusal(k_cu121, "470.57.02", { "tesla", "tesla" }));
    CHECK(refusal(k_cu121, "470.57.02", { "tesla", "geforce" }));
}

TEST_CASE("with no brand known only an alternative without a brand admits the driver", "[resolve]")
{
    CHECK(refusal(k_cu121, "470.57.02", {}));
    CHECK_FALSE(refusal(k_cu121, "535.104.05", {}));
}

TEST_CASE("the brands a requirement admits a driver on, in its order", "[resolve]")
{
    const matrix::Matrix& matrix = matrix::Matrix::embedded();
    auto admitted = [&](const std::string& requirement, const std::string& driver) {
        return resolve::brands_admitted(requirement, { DriverVersion::parse(driver), {} }, matrix);
    };
    CHECK(admitted(k_cu121, "470.57.02") == std::vector<std::string> { "tesla" });
    CHECK(admitted(k_cu121, "515.65.01").empty());
    // NVIDIA's 12.8 images name no GeForce brand in their driver branches
    const std::string& cu128
        = matrix.nvidia_image_release(CudaVersion::parse("12.8"))->require_cuda_for("amd64")->value;
    CHECK(admitted(cu128, "550.54.14")
        == std::vector<std::string> { "unknown", "grid", "tesla", "nvidia", "quadro", "quadrortx", "nvidiartx", "vapps",
            "vpc", "vcs", "vws", "cloudgaming" });
}

TEST_CASE("a GPU's brand follows its segment in the matrix", "[resolve]")
{
    CHECK(resolve::nvidia_brand(matrix::GpuSegment::datacenter) == "tesla");
    CHECK(resolve::nvidia_brand(matrix::GpuSegment::workstation) == "quadro");
    CHECK(resolve::nvidia_brand(matrix::GpuSegment::geforce) == "geforce");
}
