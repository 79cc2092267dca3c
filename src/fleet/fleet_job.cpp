#include "fleet/fleet_job.h"

#include "core/error.h"

#include <algorithm>

namespace dlenv::fleet {
namespace {

constexpr std::size_t k_max_job_name = 63; // a DNS label: Kubernetes' limit for names carried as labels

bool plain_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || std::string_view("._:/@+=-").find(c) != std::string_view::npos;
}

} // namespace

void check_plain(std::string_view field, std::string_view value)
{
    if (value.empty())
        throw Error(ErrorCode::invalid_input, std::string(field) + ": empty", "give it a value");
    auto bad = std::find_if_not(value.begin(), value.end(), plain_char);
    if (bad != value.end())
        throw Error(ErrorCode::invalid_input,
            std::string(field) + ": holds a character a fleet job refuses at offset "
                + std::to_string(bad - value.begin()),
            "use letters, digits and ._:/@+=- only: the value is written into a job script");
}

void check_job(const FleetJob& job)
{
    check_plain("NAME", job.name);
    check_plain("--registry", job.registry.text());
    for (const auto& tier : job.tiers)
        check_plain("tier", tier);
    if (job.nodes == 0)
        throw Error(ErrorCode::invalid_input, "--nodes: 0", "verify on one node or more");
}

std::string pinned_reference(const FleetJob& job)
{
    return job.registry.familiar_name() + "@" + job.digest.text();
}

std::string stored_image(const FleetJob& job)
{
    return job.registry.familiar_name() + ":sha256-" + job.digest.hex();
}

std::string tier_list(const FleetJob& job)
{
    std::string out;
    for (const auto& tier : job.tiers)
        out += (out.empty() ? "" : ",") + tier;
    return out;
}

std::string job_name(const FleetJob& job)
{
    const std::string prefix = "dlenv-verify-";
    const std::string suffix = "-" + job.digest.hex().substr(0, 8);
    std::string middle;
    for (char c : job.name) {
        char lower = (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
        bool keep = (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9');
        if (keep)
            middle += lower;
        else if (!middle.empty() && middle.back() != '-')
            middle += '-';
    }
    middle.resize(std::min(middle.size(), k_max_job_name - prefix.size() - suffix.size()));
    while (!middle.empty() && middle.back() == '-')
        middle.pop_back();
    return prefix + (middle.empty() ? "image" : middle) + suffix;
}

std::vector<std::string> node_tiers(const std::vector<std::string>& lock_tiers)
{
    std::vector<std::string> tiers = lock_tiers.empty() ? std::vector<std::string> { "static" } : lock_tiers;
    if (std::find(tiers.begin(), tiers.end(), "gpu") != tiers.end())
        return tiers;
    // gpu goes after static and before what needs the GPU working (framework, acceptance).
    auto after = std::find(tiers.begin(), tiers.end(), "static");
    tiers.insert(after == tiers.end() ? tiers.begin() : after + 1, "gpu");
    return tiers;
}

} // namespace dlenv::fleet
