#pragma once

#include "workflow/registry_documents.h"

#include <string>
#include <vector>

namespace dlenv::workflow {

// The newest report of one tier from one node.
struct NodeReport {
    NodeFacts node;
    std::string tier;
    bool passed = false;
    std::string time;
    Digest artifact; // the artifact it came in
};

// Where a fleet's verification of an image stands, from the reports in its registry.
struct FleetStatus {
    Digest image;
    std::vector<NodeReport> reports; // by node, then tier
    // The GPUs the image's lock targets (its lock artifact's stack.gpus), by what the gpu
    // tier said on the nodes that have them: a pass on one node is a pass; none at all is
    // missing. Empty without a lock artifact.
    std::vector<std::string> models_passed;
    std::vector<std::string> models_failed;
    std::vector<std::string> models_missing;
};

// The status the documents of registry_documents() give.
FleetStatus fleet_status(const ImageDocuments& found);

} // namespace dlenv::workflow
