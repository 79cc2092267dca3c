#include "core/error.h"
#include "core/gpu_uuid.h"

#include <catch2/catch.hpp>

using namespace dlenv;

// The form is NVIDIA's: nvidia-smi's `uuid` query field and NVML's nvmlDeviceGetUUID, "a 5
// part hexadecimal string" (docs.nvidia.com/deploy/nvidia-smi, docs.nvidia.com/deploy/nvml-api);
// GPU-b8ea3855-... is the `nvidia-smi -L` example of NVIDIA's container runtime README
// (NVIDIA_VISIBLE_DEVICES), GPU-c5533cd4-... the <uuid> of tests/fixtures/nvidia_smi/l4-driver-555.xml.
TEST_CASE("a GPU UUID is GPU- and 8-4-4-4-12 hex digits, kept as written", "[core]")
{
    for (const char* text : { "GPU-b8ea3855-276c-c9cb-b366-c6fa655957c5", "GPU-c5533cd4-5a60-059e-348d-b6d7466932e4",
             "GPU-B8EA3855-276C-C9CB-B366-C6FA655957C5" })
        CHECK(GpuUuid::parse(text).text() == text);
    CHECK(GpuUuid::parse("GPU-b8ea3855-276c-c9cb-b366-c6fa655957c5")
        == GpuUuid::parse("GPU-b8ea3855-276c-c9cb-b366-c6fa655957c5"));
}

TEST_CASE("text that is no GPU UUID is refused, naming it and the form", "[core]")
{
    for (const char* text : { "", "GPU-", "b8ea3855-276c-c9cb-b366-c6fa655957c5",
             "GPU-b8ea3855-276c-c9cb-b366-c6fa655957c", "GPU-b8ea3855-276c-c9cb-b366-c6fa655957c55",
             "GPU-b8ea3855276c-c9cb-b366-c6fa655957c5", "GPU-g8ea3855-276c-c9cb-b366-c6fa655957c5",
             "MIG-GPU-b8ea3855-276c-c9cb-b366-c6fa655957c5/1/0", "GPU-b8ea3855-276c-c9cb-b366-c6fa655957c5 ", "[N/A]" })
        CHECK_FALSE(GpuUuid::try_parse(text));
    try {
        GpuUuid::parse("GPU-fake");
        FAIL("parsed");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(e.message() == "'GPU-fake' is not a GPU UUID");
        CHECK(e.hint()
            == "a GPU UUID is GPU- and 8-4-4-4-12 hex digits, as `nvidia-smi --query-gpu=uuid` prints it: "
               "GPU-b8ea3855-276c-c9cb-b366-c6fa655957c5");
    }
}
