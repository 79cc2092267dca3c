#include "cli/node_gpus.h"

namespace dlenv::cli {

nlohmann::json node_gpus_json(const std::vector<workflow::NodeGpu>& gpus)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& gpu : gpus)
        out.push_back({ { "model", gpu.model },
            { "uuid", gpu.uuid ? nlohmann::json(gpu.uuid->text()) : nlohmann::json(nullptr) } });
    return out;
}

std::string node_gpu_text(const workflow::NodeGpu& gpu)
{
    return gpu.model + " " + (gpu.uuid ? gpu.uuid->text() : std::string("(UUID unknown)"));
}

} // namespace dlenv::cli
