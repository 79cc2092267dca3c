#include "core/error.h"
#include "fleet/indexed_job.h"
#include "fleet/node_script.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

const std::string k_hex(64, 'c');

fleet::FleetJob team_job()
{
    return { "team/base", ImageReference::parse("registry.example.com/team/base:1"), Digest::from_hex(k_hex),
        { "static", "gpu" }, 3, 8, false };
}

fleet::KubernetesSettings settings(std::string product)
{
    return { ImageReference::parse("registry.example.com/tools/dlenv@sha256:" + std::string(64, 'd')),
        std::move(product), 2 };
}

} // namespace

TEST_CASE("the Indexed Job runs one pod per node, apart, on the GPU product, failing an index on exit 1", "[fleet]")
{
    nlohmann::json expected = nlohmann::json::parse(R"({
  "apiVersion": "batch/v1",
  "kind": "Job",
  "metadata": {"name": "dlenv-verify-team-base-cccccccc", "labels": {"dlenv.dev/fleet-job": "dlenv-verify-team-base-cccccccc"}},
  "spec": {
    "completionMode": "Indexed",
    "completions": 3,
    "parallelism": 3,
    "backoffLimitPerIndex": 2,
    "podFailurePolicy": {"rules": [
      {"action": "FailIndex", "onExitCodes": {"containerName": "verify", "operator": "In", "values": [1, 2]}},
      {"action": "Count", "onExitCodes": {"containerName": "verify", "operator": "In", "values": [3]}},
      {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]}
    ]},
    "template": {
      "metadata": {"labels": {"dlenv.dev/fleet-job": "dlenv-verify-team-base-cccccccc"}},
      "spec": {
        "restartPolicy": "Never",
        "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
          {"labelSelector": {"matchLabels": {"dlenv.dev/fleet-job": "dlenv-verify-team-base-cccccccc"}},
           "topologyKey": "kubernetes.io/hostname"}
        ]}},
        "nodeSelector": {"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"},
        "containers": [{
          "name": "verify",
          "image": "registry.example.com/tools/dlenv@sha256:dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd",
          "command": ["/bin/sh", "-c", "NODE"],
          "env": [
            {"name": "DLENV_FLEET_DLENV", "value": "dlenv"},
            {"name": "DLENV_FLEET_IMAGE", "value": "registry.example.com/team/base@sha256:cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"},
            {"name": "DLENV_FLEET_STORED", "value": "registry.example.com/team/base:sha256-cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"},
            {"name": "DLENV_FLEET_TIERS", "value": "static,gpu"},
            {"name": "DLENV_FLEET_PUSH", "value": "registry.example.com/team/base:1"},
            {"name": "DLENV_FLEET_INSECURE", "value": "0"},
            {"name": "DLENV_FLEET_STORE", "value": "/tmp/dlenv-fleet"}
          ],
          "resources": {"limits": {"nvidia.com/gpu": "8"}},
          "securityContext": {"privileged": true}
        }]
      }
    }
  }
})");
    expected["spec"]["template"]["spec"]["containers"][0]["command"][2] = fleet::node_script();
    CHECK(fleet::indexed_job(team_job(), settings("NVIDIA-H100-80GB-HBM3")).dump(2) == expected.dump(2));
}

TEST_CASE("without a GPU product the Job selects no node label", "[fleet]")
{
    nlohmann::json job = fleet::indexed_job(team_job(), settings(""));
    CHECK_FALSE(job["spec"]["template"]["spec"].contains("nodeSelector"));
}

TEST_CASE("a GPU product that is no label value is refused", "[fleet]")
{
    for (const std::string& bad :
        std::vector<std::string> { "NVIDIA H100", "-H100", "H100-", std::string(64, 'a'), "H100;x", "a/b" }) {
        try {
            fleet::indexed_job(team_job(), settings(bad));
            FAIL("accepted " << bad);
        } catch (const Error& e) {
            CHECK(e.code() == ErrorCode::invalid_input);
            CHECK(std::string(e.what()) == "--gpu-product: \"" + bad + "\" is no Kubernetes label value");
        }
    }
}
