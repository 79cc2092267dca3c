#include "fleet/indexed_job.h"

#include "core/error.h"
#include "fleet/node_script.h"

namespace dlenv::fleet {
namespace {

constexpr std::size_t k_max_label_value = 63;

// Kubernetes' label values: at most 63 of [A-Za-z0-9._-], alphanumeric at both ends.
void check_label_value(const std::string& field, const std::string& value)
{
    auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); };
    bool good = !value.empty() && value.size() <= k_max_label_value && alnum(value.front()) && alnum(value.back());
    for (char c : value)
        good = good && (alnum(c) || c == '.' || c == '_' || c == '-');
    if (!good)
        throw Error(ErrorCode::invalid_input, field + ": \"" + value + "\" is no Kubernetes label value",
            "give the value GPU Feature Discovery puts in nvidia.com/gpu.product, such as NVIDIA-H100-80GB-HBM3");
}

nlohmann::json exit_code_rule(const char* action, std::vector<int> codes)
{
    return { { "action", action },
        { "onExitCodes", { { "containerName", k_container }, { "operator", "In" }, { "values", codes } } } };
}

nlohmann::json container(const FleetJob& job, const KubernetesSettings& settings)
{
    nlohmann::json env = nlohmann::json::array();
    for (const auto& [name, value] : node_environment(job, "dlenv"))
        env.push_back({ { "name", name }, { "value", value } });
    env.push_back({ { "name", "DLENV_FLEET_STORE" }, { "value", k_pod_store } });
    return {
        { "name", k_container },
        { "image", settings.dlenv_image.text() },
        { "command", { "/bin/sh", "-c", node_script() } },
        { "env", env },
        { "resources", { { "limits", { { "nvidia.com/gpu", std::to_string(job.gpus_per_node) } } } } },
        // dlenv verify runs the image in its own container (runc, crun or bwrap).
        { "securityContext", { { "privileged", true } } },
    };
}

} // namespace

nlohmann::json indexed_job(const FleetJob& job, const KubernetesSettings& settings)
{
    check_job(job);
    check_plain("--dlenv-image", settings.dlenv_image.text());
    if (!settings.gpu_product.empty())
        check_label_value("--gpu-product", settings.gpu_product);
    const std::string name = job_name(job);
    const nlohmann::json labels = { { k_job_label, name } };

    nlohmann::json pod = {
        { "restartPolicy", "Never" },
        { "affinity",
            { { "podAntiAffinity",
                { { "requiredDuringSchedulingIgnoredDuringExecution",
                    { { { "labelSelector", { { "matchLabels", labels } } },
                        { "topologyKey", "kubernetes.io/hostname" } } } } } } } },
        { "containers", { container(job, settings) } },
    };
    if (!settings.gpu_product.empty())
        pod["nodeSelector"] = { { "nvidia.com/gpu.product", settings.gpu_product } };

    nlohmann::json rules = {
        exit_code_rule("FailIndex", { k_node_failed, k_node_bad_input }),
        exit_code_rule("Count", { k_node_not_run }),
        { { "action", "Ignore" }, { "onPodConditions", { { { "type", "DisruptionTarget" }, { "status", "True" } } } } },
    };
    return {
        { "apiVersion", "batch/v1" },
        { "kind", "Job" },
        { "metadata", { { "name", name }, { "labels", labels } } },
        { "spec",
            { { "completionMode", "Indexed" }, { "completions", job.nodes }, { "parallelism", job.nodes },
                { "backoffLimitPerIndex", settings.retries_per_index }, { "podFailurePolicy", { { "rules", rules } } },
                { "template", { { "metadata", { { "labels", labels } } }, { "spec", pod } } } } },
    };
}

} // namespace dlenv::fleet
