#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dlenv::fleet {

// What one node reported: its "dlenv-fleet-result NODE CODE" line.
struct NodeResult {
    std::string node;
    int exit_code = 0;
};

// The node results in a job's output, in the order they came; lines of anything else
// (dlenv's own output on the nodes) are passed over, as is a result line that does not
// parse.
std::vector<NodeResult> read_node_results(std::string_view output);

// "passed", "FAILED", "bad input", "could not run": what a node's or the job's code says.
std::string outcome_text(int exit_code);

} // namespace dlenv::fleet
