#pragma once

#include "workflow/registry_documents.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace dlenv::cli {

// [{"model", "uuid"}] for the GPUs a report ran on; "uuid" is null where the report gives none.
nlohmann::json node_gpus_json(const std::vector<workflow::NodeGpu>& gpus);
// "NVIDIA H100 80GB HBM3 GPU-b8ea3855-276c-c9cb-b366-c6fa655957c5", or the model and
// "(UUID unknown)" for a report written without UUIDs.
std::string node_gpu_text(const workflow::NodeGpu& gpu);

} // namespace dlenv::cli
