#include "verify/cdi.h"

#include "core/error.h"
#include "core/file.h"
#include "core/json_reader.h"
#include "verify/cdi_yaml.h"

#include <algorithm>

namespace dlenv::verify {
namespace {

constexpr std::string_view k_kind = "nvidia.com/gpu";

enum class SpecFormat { none, json, yaml };

// The CDI specification names both: a spec file ends in .json or .yaml.
SpecFormat spec_format(const std::filesystem::path& file)
{
    std::string extension = file.extension().string();
    if (extension == ".json")
        return SpecFormat::json;
    if (extension == ".yaml")
        return SpecFormat::yaml;
    return SpecFormat::none;
}

std::vector<std::string> strings_at(const nlohmann::json& object, const char* key)
{
    auto found = object.find(key);
    return found == object.end() || found->is_null() ? std::vector<std::string> {}
                                                     : found->get<std::vector<std::string>>();
}

DeviceNode device_node(const nlohmann::json& node, const DeviceProbe& probe)
{
    DeviceNode out;
    out.path = node.at("path").get<std::string>();
    out.host_path = node.value("hostPath", out.path);
    if (!node.contains("major")) {
        auto probed = probe(out.host_path);
        if (!probed)
            throw Error(ErrorCode::environment, "the CDI spec names " + out.host_path + ", which is no device here",
                k_regenerate_cdi_spec);
        probed->path = out.path;
        probed->host_path = out.host_path;
        return *probed;
    }
    std::string type = node.value("type", std::string("c"));
    if (type != "c" && type != "b" && type != "u" && type != "p")
        throw Error(ErrorCode::invalid_input, "device node " + out.path + ": type \"" + type + "\" is not c, b, u or p",
            k_regenerate_cdi_spec);
    out.type = type.front();
    out.major = node.at("major").get<std::uint32_t>();
    out.minor = node.value("minor", 0u);
    out.file_mode = node.value("fileMode", 0666u);
    return out;
}

void apply_edits(const nlohmann::json& edits, const DeviceProbe& probe, GpuInjection& out)
{
    for (const auto& entry : strings_at(edits, "env"))
        out.env.push_back(entry);
    for (const auto& node : edits.value("deviceNodes", nlohmann::json::array()))
        out.devices.push_back(device_node(node, probe));
    for (const auto& mount : edits.value("mounts", nlohmann::json::array())) {
        std::vector<std::string> options = strings_at(mount, "options");
        out.binds.push_back({ mount.at("hostPath").get<std::string>(), mount.at("containerPath").get<std::string>(),
            std::find(options.begin(), options.end(), "ro") != options.end() });
    }
    for (const auto& hook : edits.value("hooks", nlohmann::json::array()))
        out.hooks.push_back({ hook.at("hookName").get<std::string>(), hook.at("path").get<std::string>(),
            strings_at(hook, "args"), strings_at(hook, "env") });
}

} // namespace

GpuInjection plan_from_cdi_spec(const nlohmann::json& spec, const std::string& where, const DeviceProbe& probe)
{
    GpuInjection out;
    out.source = "CDI spec " + where;
    try {
        if (auto edits = spec.find("containerEdits"); edits != spec.end())
            apply_edits(*edits, probe, out);
        const nlohmann::json& devices = spec.at("devices");
        auto all = std::find_if(
            devices.begin(), devices.end(), [](const nlohmann::json& device) { return device.at("name") == "all"; });
        for (const auto& device : devices)
            if (all == devices.end() || device.at("name") == "all")
                apply_edits(device.at("containerEdits"), probe, out);
    } catch (const nlohmann::json::exception& e) {
        throw Error(ErrorCode::invalid_input, where + ": not a CDI spec: " + e.what(), k_regenerate_cdi_spec);
    } catch (const Error& e) {
        throw e.with_context(where);
    }
    return out;
}

std::optional<GpuInjection> plan_from_cdi_dirs(const std::vector<std::filesystem::path>& dirs, const DeviceProbe& probe)
{
    for (const auto& dir : dirs) {
        std::error_code ec;
        std::vector<std::filesystem::path> files;
        for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
            if (spec_format(entry.path()) != SpecFormat::none)
                files.push_back(entry.path());
        std::sort(files.begin(), files.end());
        for (const auto& file : files) {
            nlohmann::json spec = spec_format(file) == SpecFormat::yaml
                ? cdi_yaml_document(read_file(file), file.string())
                : JsonReader::parse_document_or_null(read_file(file));
            // A kind that is no string is some other vendor's mistake, not an nvidia.com/gpu spec.
            auto kind = spec.is_object() ? spec.find("kind") : spec.end();
            if (spec.is_object() && kind != spec.end() && kind->is_string() && *kind == k_kind)
                return plan_from_cdi_spec(spec, file.string(), probe);
        }
    }
    return std::nullopt;
}

} // namespace dlenv::verify
