#include "core/error.h"
#include "matrix/matrix.h"
#include "workflow/host_facts.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

std::vector<std::string> gpus_of(const HostFacts& host)
{
    return host.gpus;
}

} // namespace

TEST_CASE("host facts from the flags alone are the driver and GPUs given, and no probe is asked", "[workflow]")
{
    const matrix::Matrix& matrix = matrix::Matrix::embedded();
    HostFacts none = workflow::host_facts({}, matrix);
    CHECK_FALSE(none.driver);
    CHECK(none.gpus.empty());

    HostFacts given = workflow::host_facts({ DriverVersion::parse("535.104.05"), { "RTX 4090", "8.6" }, {} }, matrix);
    REQUIRE(given.driver);
    CHECK(given.driver->text() == "535.104.05");
    CHECK(gpus_of(given) == std::vector<std::string> { "RTX 4090", "8.6" });
}

TEST_CASE("a driver given as its branch is the branch's newest release on record", "[workflow]")
{
    const matrix::Matrix& matrix = matrix::Matrix::embedded();
    HostFacts branch = workflow::host_facts({ std::nullopt, {}, {}, 535 }, matrix);
    REQUIRE(branch.driver);
    CHECK(branch.driver->text() == "535.309.01");
    try {
        workflow::host_facts({ std::nullopt, {}, {}, 352 }, matrix);
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(e.message() == "driver 352 is no driver branch the matrix lists releases of");
    }
}

TEST_CASE("host facts with detection add the machine's GPUs by model, else by compute capability", "[workflow]")
{
    const matrix::Matrix& matrix = matrix::Matrix::embedded();
    REQUIRE(matrix.find_gpu("NVIDIA A100-SXM4-80GB"));
    REQUIRE_FALSE(matrix.find_gpu("NVIDIA Prototype X"));
    host::DriverFacts machine { DriverVersion::parse("550.54.15"),
        { { "NVIDIA A100-SXM4-80GB", ComputeCapability(8, 0), 80.0 },
            { "NVIDIA Prototype X", ComputeCapability(8, 9), std::nullopt },
            { "NVIDIA Mystery", std::nullopt, std::nullopt } },
        "nvml" };
    auto probe = [&machine] { return std::optional<host::DriverFacts>(machine); };

    HostFacts detected = workflow::host_facts({ std::nullopt, { "T4" }, probe }, matrix);
    REQUIRE(detected.driver);
    CHECK(detected.driver->text() == "550.54.15");
    CHECK(gpus_of(detected) == std::vector<std::string> { "T4", "NVIDIA A100-SXM4-80GB", "8.9" });

    HostFacts given_driver = workflow::host_facts({ DriverVersion::parse("525.60.13"), {}, probe }, matrix);
    CHECK(given_driver.driver->text() == "525.60.13");
}

TEST_CASE("host facts with detection on a machine without a driver is an environment error", "[workflow]")
{
    try {
        workflow::host_facts(
            { std::nullopt, {}, [] { return std::optional<host::DriverFacts>(); } }, matrix::Matrix::embedded());
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::environment);
        CHECK(e.message() == "--host found no NVIDIA driver (neither NVML nor nvidia-smi answered)");
        CHECK(e.hint() == "run on the GPU machine, or pass --driver and --gpu by hand");
    }
}
