#include "build/image_labels.h"

#include "core/version.h"

namespace dlenv::build {
namespace {

std::string string_or_empty(const nlohmann::json& value)
{
    return value.is_string() ? value.get<std::string>() : std::string();
}

std::string joined(const nlohmann::json& list)
{
    std::string out;
    for (const auto& item : list)
        out += (out.empty() ? "" : " ") + item.get<std::string>();
    return out;
}

} // namespace

std::string nvidia_require_cuda(const lock::Lockfile& lock, const matrix::Matrix& matrix)
{
    const nlohmann::json& stack = lock.json().at("stack");
    std::string out = "cuda>=" + CudaVersion::parse(stack.at("cuda").get<std::string>()).truncated(2).text();
    const nlohmann::json& minor_floor = stack.at("driver").at("minor_version_min");
    if (minor_floor.is_null())
        return out;
    std::uint32_t lowest = DriverVersion::parse(minor_floor.get<std::string>()).major();
    std::uint32_t toolkit = DriverVersion::parse(stack.at("driver").at("toolkit_min").get<std::string>()).major();
    std::vector<std::uint32_t> branches;
    for (const auto& branch : matrix.driver_branches())
        if (branch.branch >= lowest && branch.branch < toolkit)
            branches.push_back(branch.branch);
    std::sort(branches.begin(), branches.end());
    for (std::uint32_t branch : branches)
        out += " brand=tesla,driver>=" + std::to_string(branch) + ",driver<" + std::to_string(branch + 1);
    return out;
}

std::map<std::string, std::string> image_labels(const lock::Lockfile& lock)
{
    const nlohmann::json& json = lock.json();
    const nlohmann::json& stack = json.at("stack");
    const nlohmann::json& framework = stack.at("framework");
    std::map<std::string, std::string> labels = {
        {"org.opencontainers.image.title", json.at("profile").at("name").get<std::string>()},
        {"dev.dlenv.lock.digest", lock.digest()},
        {"dev.dlenv.framework",
         framework.at("name").get<std::string>() + " " + framework.at("local_version").get<std::string>()},
        {"dev.dlenv.cuda", stack.at("cuda").get<std::string>()},
        {"dev.dlenv.cudnn", string_or_empty(stack.at("cudnn"))},
        {"dev.dlenv.nccl", string_or_empty(stack.at("nccl"))},
        {"dev.dlenv.python", stack.at("python").get<std::string>()},
        {"dev.dlenv.driver.min", stack.at("driver").at("toolkit_min").get<std::string>()},
        {"dev.dlenv.driver.minor_version_min", string_or_empty(stack.at("driver").at("minor_version_min"))},
        {"dev.dlenv.arch_list", joined(stack.at("arch_list"))},
    };
    std::erase_if(labels, [](const auto& label) { return label.second.empty(); }); // facts the stack lacks
    return labels;
}

std::vector<std::pair<std::string, std::string>> nvidia_environment(const lock::Lockfile& lock,
                                                                     const matrix::Matrix& matrix)
{
    return {{"NVIDIA_VISIBLE_DEVICES", "all"},
            {"NVIDIA_DRIVER_CAPABILITIES", "compute,utility"},
            {"NVIDIA_REQUIRE_CUDA", nvidia_require_cuda(lock, matrix)}};
}

} // namespace dlenv::build
