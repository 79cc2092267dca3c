#include "image/image_config.h"

#include "core/time_text.h"

namespace dlenv::image {
namespace {

nlohmann::json scratch_config(const std::string& architecture)
{
    return { { "architecture", architecture }, { "os", "linux" }, { "config", nlohmann::json::object() },
        { "rootfs", { { "type", "layers" }, { "diff_ids", nlohmann::json::array() } } } };
}

// Sets NAME=value in a Docker-style Env list, in place when NAME is there already.
void set_env(nlohmann::json& env, const std::string& name, const std::string& value)
{
    std::string entry = name + "=" + value;
    for (auto& item : env)
        if (item.is_string() && item.get<std::string>().starts_with(name + "=")) {
            item = entry;
            return;
        }
    env.push_back(entry);
}

bool has_env(const nlohmann::json& env, const std::string& name)
{
    for (const auto& item : env)
        if (item.is_string() && item.get<std::string>().starts_with(name + "="))
            return true;
    return false;
}

} // namespace

nlohmann::json compose_config(const nlohmann::json& base, const ConfigChanges& changes)
{
    nlohmann::json config = base.is_null() ? scratch_config(changes.architecture) : base;
    std::string created = rfc3339_utc(changes.created);
    config["created"] = created;
    if (!config.contains("config") || config["config"].is_null())
        config["config"] = nlohmann::json::object();
    nlohmann::json& runtime = config["config"];

    nlohmann::json env = runtime.value("Env", nlohmann::json::array());
    if (!has_env(env, "PATH"))
        set_env(env, "PATH", std::string(k_default_path));
    if (!has_env(env, "LD_LIBRARY_PATH"))
        set_env(env, "LD_LIBRARY_PATH", std::string(k_default_library_path));
    for (const auto& [name, value] : changes.env)
        set_env(env, name, value);
    runtime["Env"] = env;

    nlohmann::json labels = runtime.value("Labels", nlohmann::json::object());
    if (labels.is_null())
        labels = nlohmann::json::object();
    for (const auto& [key, value] : changes.labels)
        labels[key] = value;
    runtime["Labels"] = labels;

    nlohmann::json& diff_ids = config["rootfs"]["diff_ids"];
    nlohmann::json history = config.value("history", nlohmann::json::array());
    for (const auto& [diff_id, created_by] : changes.layers) {
        diff_ids.push_back(diff_id.text());
        history.push_back({ { "created", created }, { "created_by", created_by } });
    }
    config["history"] = history;
    return config;
}

} // namespace dlenv::image
