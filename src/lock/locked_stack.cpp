#include "lock/locked_stack.h"

#include "lock/section_json.h"

namespace dlenv::lock {
namespace {

nlohmann::json cc_list(const std::vector<ComputeCapability>& list)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& cc : list)
        out.push_back(cc.text());
    return out;
}

std::vector<ComputeCapability> read_cc_list(const JsonReader& list)
{
    std::vector<ComputeCapability> out;
    for (const auto& item : list.items())
        out.push_back(item.as<ComputeCapability>());
    return out;
}

template <typename Version> nlohmann::json optional_text(const std::optional<Version>& version)
{
    return version ? nlohmann::json(version->text()) : nlohmann::json(nullptr);
}

Verdict read_verdict(const JsonReader& field)
{
    std::string text = field.string();
    for (Verdict verdict : { Verdict::ok, Verdict::warn, Verdict::fail })
        if (resolve::verdict_name(verdict) == text)
            return verdict;
    field.fail("expected \"ok\", \"warning\" or \"error\"", "run `dlenv lock` again");
}

LockedGpu read_gpu(const JsonReader& gpu)
{
    gpu.allow_only({ "name", "compute_capability", "verdict", "findings" });
    return { gpu.at("name").string(), gpu.at("compute_capability").as<ComputeCapability>(),
        read_verdict(gpu.at("verdict")), gpu.at("findings").strings() };
}

nlohmann::json framework_json(const LockedFramework& framework)
{
    nlohmann::json out = { { "name", framework.name }, { "version", framework.public_version },
        { "local_version", framework.version }, { "variant", framework.variant } };
    if (!framework.extra.empty())
        out["extra"] = framework.extra;
    if (framework.min_compute_capability)
        out["min_compute_capability"] = framework.min_compute_capability->text();
    return out;
}

LockedFramework read_framework(const JsonReader& framework)
{
    framework.allow_only({ "name", "version", "local_version", "variant", "extra", "min_compute_capability" });
    return { framework.at("name").string(), framework.at("local_version").string(), framework.at("version").string(),
        framework.at("variant").string(), framework.optional_string("extra").value_or(""),
        framework.optional_as<ComputeCapability>("min_compute_capability") };
}

} // namespace

LockedStack locked_stack_of(const resolve::Stack& stack)
{
    LockedStack out { stack.framework.name, stack.framework.version.str(), stack.framework.version.public_str(),
        stack.variant, stack.framework_extra, {}, {}, stack.cuda, std::nullopt, std::nullopt, stack.python,
        stack.toolkit_driver, stack.minor_version_driver, stack.forward_compat, stack.arch_list, stack.ptx,
        stack.min_compute_capability, {}, stack.unconfirmed };
    if (stack.cudnn)
        out.cudnn = CudnnVersion::parse(*stack.cudnn);
    if (stack.nccl)
        out.nccl = NcclVersion::parse(*stack.nccl);
    for (const auto& c : stack.companions)
        out.companions.push_back({ c.name, c.version.str() });
    for (const auto& a : stack.also)
        out.also.push_back({ a.framework.name, a.framework.version.str(), a.framework.version.public_str(), a.variant,
            a.extra, a.min_compute_capability });
    for (const auto& g : stack.gpus)
        out.gpus.push_back({ g.name, g.compute_capability, g.verdict, g.codes });
    return out;
}

LockedStack read_locked_stack(const JsonReader& stack)
{
    stack.allow_only({ "framework", "companions", "also", "python", "cuda", "cudnn", "nccl", "driver", "arch_list",
        "ptx", "gpus", "unconfirmed" });
    LockedFramework framework = read_framework(stack.at("framework"));
    JsonReader driver = stack.at("driver");
    LockedStack out { framework.name, framework.version, framework.public_version, framework.variant, framework.extra,
        {}, {}, stack.at("cuda").as<CudaVersion>(), stack.optional_as<CudnnVersion>("cudnn"),
        stack.optional_as<NcclVersion>("nccl"), stack.at("python").as<PythonVersion>(),
        driver.at("toolkit_min").as<DriverVersion>(), driver.optional_as<DriverVersion>("minor_version_min"),
        driver.at("forward_compat").boolean(), read_cc_list(stack.at("arch_list")), read_cc_list(stack.at("ptx")),
        framework.min_compute_capability, {}, stack.at("unconfirmed").strings() };
    driver.allow_only({ "toolkit_min", "minor_version_min", "forward_compat" });
    for (const auto& item : stack.at("companions").items()) {
        item.allow_only({ "name", "version" });
        out.companions.push_back({ item.at("name").string(), item.at("version").string() });
    }
    if (auto also = stack.find("also"))
        for (const auto& item : also->items())
            out.also.push_back(read_framework(item));
    for (const auto& item : stack.at("gpus").items())
        out.gpus.push_back(read_gpu(item));
    return out;
}

nlohmann::json to_json(const LockedStack& stack)
{
    nlohmann::json companions = nlohmann::json::array();
    for (const auto& c : stack.companions)
        companions.push_back({ { "name", c.name }, { "version", c.version } });
    nlohmann::json gpus = nlohmann::json::array();
    for (const auto& g : stack.gpus)
        gpus.push_back({ { "name", g.name }, { "compute_capability", g.compute_capability.text() },
            { "verdict", resolve::verdict_name(g.verdict) }, { "findings", g.findings } });
    nlohmann::json out = {
        { "framework",
            framework_json({ stack.framework, stack.framework_version, stack.framework_public_version, stack.variant,
                stack.extra, stack.min_compute_capability }) },
        { "companions", companions },
        { "python", stack.python.text() },
        { "cuda", stack.cuda.text() },
        { "cudnn", optional_text(stack.cudnn) },
        { "nccl", optional_text(stack.nccl) },
        { "driver",
            { { "toolkit_min", stack.toolkit_driver.text() },
                { "minor_version_min", optional_text(stack.minor_version_driver) },
                { "forward_compat", stack.forward_compat } } },
        { "arch_list", cc_list(stack.arch_list) },
        { "ptx", cc_list(stack.ptx) },
        { "gpus", gpus },
        { "unconfirmed", stack.unconfirmed },
    };
    if (!stack.also.empty()) {
        nlohmann::json also = nlohmann::json::array();
        for (const auto& framework : stack.also)
            also.push_back(framework_json(framework));
        out["also"] = also;
    }
    return out;
}

} // namespace dlenv::lock
