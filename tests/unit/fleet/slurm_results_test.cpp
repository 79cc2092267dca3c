#include "fleet/slurm_results.h"

#include <catch2/catch.hpp>

using namespace dlenv;

TEST_CASE("the nodes' results are read from the job's output, other lines passed over", "[fleet]")
{
    std::string output = "pulled 127.0.0.1:5000/team/base:sha256-ab sha256:ab\n"
                         "dlenv-fleet-result gpu-a 0\n"
                         "dlenv: the gpu tier was not run: no NVIDIA driver\n"
                         "dlenv-fleet-result gpu-b 3\n"
                         "dlenv-fleet-result  1\n"
                         "dlenv-fleet-result gpu-c one\n"
                         "dlenv-fleet-result gpu-d 1\n"
                         "dlenv-fleet-outcome 1\n";
    std::vector<fleet::NodeResult> results = fleet::read_node_results(output);
    REQUIRE(results.size() == 3);
    CHECK(results[0].node == "gpu-a");
    CHECK(results[0].exit_code == 0);
    CHECK(results[1].node == "gpu-b");
    CHECK(results[1].exit_code == 3);
    CHECK(results[2].node == "gpu-d");
    CHECK(results[2].exit_code == 1);
    CHECK(fleet::read_node_results("dlenv-fleet-result gpu-e 2").size() == 1);
}

TEST_CASE("each code reads as what verify means by it", "[fleet]")
{
    CHECK(fleet::outcome_text(0) == "passed");
    CHECK(fleet::outcome_text(1) == "FAILED");
    CHECK(fleet::outcome_text(2) == "bad input");
    CHECK(fleet::outcome_text(3) == "could not run");
    CHECK(fleet::outcome_text(137) == "could not run");
}
