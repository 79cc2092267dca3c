#include "pypi/wheel_tags.h"

namespace dlenv::pypi {
namespace {

// PEP 600's aliases for the manylinux tags that predate it.
std::optional<std::string> legacy_alias(std::uint32_t glibc_minor, const std::string& machine)
{
    if (glibc_minor == 17)
        return "manylinux2014_" + machine;
    if (machine != "x86_64")
        return std::nullopt;
    if (glibc_minor == 12)
        return "manylinux2010_" + machine;
    if (glibc_minor == 5)
        return "manylinux1_" + machine;
    return std::nullopt;
}

std::vector<std::string> python_versions(const Target& target)
{
    std::string major = std::to_string(target.python.major());
    std::vector<std::string> out { "py" + major + std::to_string(target.python.minor()), "py" + major };
    for (std::uint32_t minor = target.python.minor(); minor-- > 0;)
        out.push_back("py" + major + std::to_string(minor));
    return out;
}

} // namespace

std::vector<std::string> platform_tags(const Target& target)
{
    std::vector<std::string> out;
    std::uint32_t oldest = target.machine == "x86_64" ? 5 : 17;
    for (std::uint32_t minor = target.glibc_minor + 1; target.glibc_major == 2 && minor-- > oldest;) {
        out.push_back("manylinux_2_" + std::to_string(minor) + "_" + target.machine);
        if (auto alias = legacy_alias(minor, target.machine))
            out.push_back(*alias);
    }
    out.push_back("linux_" + target.machine);
    return out;
}

std::vector<Tag> supported_tags(const Target& target)
{
    const std::vector<std::string> platforms = platform_tags(target);
    const std::string major = std::to_string(target.python.major());
    const std::string cp = "cp" + major + std::to_string(target.python.minor());
    std::vector<Tag> out;
    auto each_platform = [&](const std::string& python, const std::string& abi) {
        for (const auto& platform : platforms)
            out.push_back({ python, abi, platform });
    };
    each_platform(cp, cp);
    each_platform(cp, "abi3");
    each_platform(cp, "none");
    // abi3 is stable from CPython 3.2 on: a cp38-abi3 wheel runs on 3.11.
    for (std::uint32_t minor = target.python.minor(); minor-- > 2;)
        each_platform("cp" + major + std::to_string(minor), "abi3");
    for (const auto& python : python_versions(target))
        each_platform(python, "none");
    out.push_back({ cp, "none", "any" });
    for (const auto& python : python_versions(target))
        out.push_back({ python, "none", "any" });
    return out;
}

TagRanking::TagRanking(const Target& target)
{
    for (const auto& tag : supported_tags(target))
        m_rank.emplace(tag, m_rank.size());
}

std::optional<std::size_t> TagRanking::rank(const std::vector<Tag>& tags) const
{
    std::optional<std::size_t> best;
    for (const auto& tag : tags)
        if (auto it = m_rank.find(tag); it != m_rank.end() && (!best || it->second < *best))
            best = it->second;
    return best;
}

} // namespace dlenv::pypi
