#include "core/error.h"
#include "store/store.h"
#include "store/verifications.h"
#include "support/scratch.h"
#include "workflow/registry_documents.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

// The UUIDs are real ones: the `nvidia-smi -L` example of NVIDIA's container runtime
// README (NVIDIA_VISIBLE_DEVICES) and the <uuid> of tests/fixtures/nvidia_smi/l4-driver-555.xml.
const char* const k_first = "GPU-b8ea3855-276c-c9cb-b366-c6fa655957c5";
const char* const k_second = "GPU-c5533cd4-5a60-059e-348d-b6d7466932e4";

nlohmann::json report_on(const nlohmann::json& host)
{
    return { { "tier", "gpu" }, { "host", host } };
}

} // namespace

TEST_CASE("a report's node facts pair each GPU model with its UUID", "[workflow]")
{
    workflow::NodeFacts node = workflow::node_facts(report_on({ { "node", "gpu-node-07" }, { "driver", "550.54.15" },
        { "gpus", { "NVIDIA H100 80GB HBM3", "NVIDIA H100 80GB HBM3" } }, { "gpu_uuids", { k_first, nullptr } } }));
    CHECK(node.host == "gpu-node-07");
    CHECK(node.driver == "550.54.15");
    REQUIRE(node.gpus.size() == 2);
    CHECK(node.gpus[0].model == "NVIDIA H100 80GB HBM3");
    REQUIRE(node.gpus[0].uuid);
    CHECK(node.gpus[0].uuid->text() == k_first);
    CHECK_FALSE(node.gpus[1].uuid);
    CHECK(node.has_model("NVIDIA H100 80GB HBM3"));
    CHECK_FALSE(node.has_model("NVIDIA L4"));
}

TEST_CASE("a report written before reports carried UUIDs reads with each UUID unknown", "[workflow]")
{
    workflow::NodeFacts node
        = workflow::node_facts(report_on({ { "node", "gpu-node-07" }, { "gpus", { "NVIDIA H100 80GB HBM3" } } }));
    REQUIRE(node.gpus.size() == 1);
    CHECK(node.gpus[0].model == "NVIDIA H100 80GB HBM3");
    CHECK_FALSE(node.gpus[0].uuid);
}

TEST_CASE("a report whose gpu_uuids holds no GPU UUID is refused, naming the field", "[workflow]")
{
    for (const auto& [uuid, shown] :
        std::vector<std::pair<nlohmann::json, std::string>> { { "GPU-b8ea3855", "\"GPU-b8ea3855\"" }, { 7, "7" } }) {
        try {
            workflow::node_facts(report_on({ { "gpus", { "NVIDIA L4" } }, { "gpu_uuids", { uuid } } }));
            FAIL("read");
        } catch (const Error& e) {
            CHECK(e.code() == ErrorCode::invalid_input);
            CHECK(e.message() == "host.gpu_uuids[0]: " + shown + " is not a GPU UUID");
        }
    }
}

TEST_CASE("a report goes out annotated with its node's GPU models and UUIDs, unknown for one without", "[workflow]")
{
    Scratch scratch;
    store::Store store = store::Store::open_for_writing(scratch.dir());
    const Digest image = Digest::of("an image");
    store::record_verification(store, image,
        { { "gpu", true, "2026-01-02T00:00:00Z",
              { { "host",
                  { { "node", "gpu-node-07" }, { "driver", "550.54.15" }, { "gpus", { "NVIDIA L4", "NVIDIA L4" } },
                      { "gpu_uuids", { k_second, nullptr } } } } },
              "" },
            { "static", true, "2026-01-01T00:00:00Z",
                { { "host", { { "node", "gpu-node-07" }, { "gpus", { "NVIDIA L4" } } } } }, "" } });
    std::vector<registry::Artifact> artifacts = workflow::image_artifacts(store, image);
    REQUIRE(artifacts.size() == 2);
    const auto& gpu = artifacts[0].annotations;
    CHECK(gpu.at(workflow::k_gpus_annotation) == "NVIDIA L4, NVIDIA L4");
    CHECK(gpu.at(workflow::k_gpu_uuids_annotation) == std::string(k_second) + ", unknown");
    CHECK(gpu.at(workflow::k_driver_annotation) == "550.54.15");
    const auto& older = artifacts[1].annotations;
    CHECK(older.at(workflow::k_gpus_annotation) == "NVIDIA L4");
    CHECK_FALSE(older.contains(workflow::k_gpu_uuids_annotation));
}
