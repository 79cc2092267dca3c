#include "core/error.h"
#include "core/file.h"
#include "matrix/matrix.h"
#include "support/scratch.h"
#include "workflow/doctor_inputs.h"

#include <catch2/catch.hpp>

using namespace dlenv;

TEST_CASE("the driver floor of a lock is its stack's driver minimums, named by the lock's file", "[workflow]")
{
    std::string lockfile = std::string(DLENV_SOURCE_DIR) + "/lockfiles/pytorch-2.1-cu118.lock.json";
    host::DriverFloor floor = workflow::driver_floor(lockfile);
    CHECK(floor.lock == lockfile);
    CHECK(floor.toolkit.text() == "520.61.05");
    REQUIRE(floor.minor_version);
    CHECK(floor.minor_version->text() == "450.80.02");
    CHECK_FALSE(floor.forward_compat);
}

TEST_CASE("a lock edited after locking gives no driver floor", "[workflow]")
{
    Scratch scratch;
    std::string text = read_file(std::string(DLENV_SOURCE_DIR) + "/lockfiles/pytorch-2.1-cu118.lock.json");
    text.replace(text.find("520.61.05"), 9, "999.99.99");
    write_file_atomic(scratch / "edited.lock.json", text);
    try {
        workflow::driver_floor((scratch / "edited.lock.json").string());
        FAIL("an edited lock was read");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK_THAT(e.message(),
            Catch::StartsWith((scratch / "edited.lock.json").string()
                + ": digest: the lock does not match its digest (recorded sha256:"));
    }
}

TEST_CASE("the GPU lookup gives the matrix's specs by name or alias, and nothing for an unknown model", "[workflow]")
{
    host::GpuLookup lookup = workflow::gpu_lookup(matrix::Matrix::embedded());
    std::optional<host::GpuSpec> h100 = lookup("H100 SXM5");
    REQUIRE(h100);
    CHECK(h100->name == "NVIDIA H100 80GB HBM3");
    CHECK(h100->compute_capability.text() == "9.0");
    CHECK(h100->architecture == "Hopper");
    CHECK(h100->memory_gb == 80);
    CHECK(h100->memory_type == "HBM3");
    CHECK(h100->bandwidth_gb_s == 3350);

    std::optional<host::GpuSpec> gh200 = lookup("NVIDIA GH200 480GB");
    REQUIRE(gh200);
    CHECK_FALSE(gh200->memory_gb);
    CHECK(gh200->memory_type.empty());
    CHECK_FALSE(gh200->bandwidth_gb_s);

    CHECK_FALSE(lookup("NVIDIA Made-Up 9000"));
}
