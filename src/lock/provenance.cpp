#include "lock/provenance.h"

#include "lock/section_json.h"

namespace dlenv::lock {

std::vector<LockedWarning> locked_warnings(const std::vector<Finding>& findings)
{
    std::vector<LockedWarning> out;
    for (const auto& f : findings)
        if (f.verdict == Verdict::warn)
            out.push_back({ f.code, f.message, f.why });
    return out;
}

std::optional<LockedHost> locked_host(const HostFacts& host)
{
    if (!host.driver && host.gpus.empty())
        return std::nullopt;
    return LockedHost { host.driver, host.gpus };
}

LockedProfile read_locked_profile(const JsonReader& profile)
{
    profile.allow_only({ "name", "sha256" });
    return { profile.at("name").string(), profile.at("sha256").string() };
}

std::vector<LockedWarning> read_locked_warnings(const JsonReader& warnings)
{
    std::vector<LockedWarning> out;
    for (const auto& item : warnings.items()) {
        item.allow_only({ "code", "message", "source" });
        out.push_back({ item.at("code").string(), item.at("message").string(), item.at("source").string() });
    }
    return out;
}

LockedHost read_locked_host(const JsonReader& host)
{
    host.allow_only({ "driver", "gpus" });
    return { host.optional_as<DriverVersion>("driver"), host.at("gpus").strings() };
}

nlohmann::json to_json(const LockedProfile& profile)
{
    return { { "name", profile.name }, { "sha256", profile.sha256 } };
}

nlohmann::json to_json(const std::vector<LockedWarning>& warnings)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& w : warnings)
        out.push_back({ { "code", w.code }, { "message", w.message }, { "source", w.source } });
    return out;
}

nlohmann::json to_json(const LockedHost& host)
{
    return { { "driver", host.driver ? nlohmann::json(host.driver->text()) : nlohmann::json(nullptr) },
        { "gpus", host.gpus } };
}

} // namespace dlenv::lock
