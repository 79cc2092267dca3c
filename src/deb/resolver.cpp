#include "deb/resolver.h"

#include "core/closest.h"
#include "core/error.h"

#include <algorithm>
#include <map>
#include <set>

namespace dlenv::deb {
namespace {

// A dependency chain a bug report can be read from: "python3 -> python3.11 (>= 3.11.2-1~)".
std::string chain_text(const std::vector<std::string>& chain)
{
    std::string out;
    for (const auto& step : chain)
        out += (out.empty() ? "" : " -> ") + step;
    return out;
}

bool provides(const Package& package, const Relation& relation)
{
    for (const auto& provided : package.provides) {
        if (provided.name != relation.name)
            continue;
        // A versioned relation is met only by a versioned Provides it admits (Policy §7.5).
        if (relation.op == Relation::Op::any || (provided.version && relation.admits(*provided.version)))
            return true;
    }
    return false;
}

bool satisfies(const Package& package, const Relation& relation)
{
    bool any_architecture = relation.arch.empty() || relation.arch == "any" || relation.arch == "native";
    if (!any_architecture && package.architecture != relation.arch)
        return false;
    if (package.name == relation.name)
        return relation.admits(package.version);
    return provides(package, relation);
}

class Resolver {
public:
    Resolver(
        const InstallRequest& request, const std::vector<Package>& available, const std::vector<Package>& installed)
        : m_request(request)
        , m_installed(installed)
    {
        for (const auto& package : available)
            if (package.architecture == request.architecture || package.architecture == "all")
                m_available[package.name].push_back(&package);
        // newest first; equal versions keep the archive's order (the first suite named wins)
        for (auto& [name, versions] : m_available)
            std::stable_sort(versions.begin(), versions.end(),
                [](const Package* a, const Package* b) { return a->version > b->version; });
        for (const auto& package : available)
            for (const auto& provided : package.provides)
                m_providers[provided.name].push_back(&package);
    }

    Resolution run()
    {
        Resolution resolution;
        for (const auto& name : m_request.packages) {
            Relation relation { name, "", Relation::Op::any, std::nullopt };
            if (find_installed(relation)) {
                resolution.already_installed.push_back(name);
                continue;
            }
            if (!m_available.contains(name) && !m_providers.contains(name))
                throw unknown(name);
            satisfy({ relation }, { "profile" }, "profile");
        }
        for (auto& [name, chosen] : m_chosen)
            resolution.packages.push_back(
                { *chosen.package, std::vector<std::string>(chosen.required_by.begin(), chosen.required_by.end()) });
        return resolution;
    }

private:
    struct Chosen {
        const Package* package;
        std::set<std::string> required_by;
    };

    Error unknown(const std::string& name) const
    {
        std::vector<std::string> names;
        for (const auto& [each, versions] : m_available)
            names.push_back(each);
        std::vector<std::string> near = closest_matches(name, names, 3);
        return Error(ErrorCode::invalid_input, "no package " + name + " in the archive",
            near.empty() ? "check the name with `apt-cache search` on the base's distribution"
                         : "did you mean " + join_alternatives(near) + "?");
    }

    const Package* find_installed(const Relation& relation) const
    {
        for (const auto& package : m_installed)
            if (satisfies(package, relation))
                return &package;
        return nullptr;
    }

    bool installed_named(const std::string& name) const
    {
        return std::any_of(
            m_installed.begin(), m_installed.end(), [&](const Package& package) { return package.name == name; });
    }

    Chosen* find_chosen(const Relation& relation)
    {
        for (auto& [name, chosen] : m_chosen)
            if (satisfies(*chosen.package, relation))
                return &chosen;
        return nullptr;
    }

    // ":any" and ":native" are met by the one architecture dlenv installs; a qualifier
    // naming another (a cross compiler's "libc6:arm64") is not.
    bool for_this_architecture(const Relation& relation) const
    {
        return relation.arch.empty() || relation.arch == "any" || relation.arch == "native"
            || relation.arch == m_request.architecture;
    }

    const Package* candidate(const Relation& relation) const
    {
        if (!for_this_architecture(relation))
            return nullptr;
        if (auto it = m_available.find(relation.name); it != m_available.end())
            for (const Package* package : it->second)
                if (relation.admits(package->version))
                    return package;
        const Package* best = nullptr;
        if (auto it = m_providers.find(relation.name); it != m_providers.end())
            for (const Package* package : it->second) {
                bool usable = package->architecture == m_request.architecture || package->architecture == "all";
                if (usable && provides(*package, relation)
                    && (!best || package->name < best->name
                        || (package->name == best->name && package->version > best->version)))
                    best = package;
            }
        return best;
    }

    void satisfy(const Alternatives& group, const std::vector<std::string>& chain, const std::string& parent)
    {
        for (const auto& relation : group)
            if (find_installed(relation))
                return;
        for (const auto& relation : group)
            if (Chosen* chosen = find_chosen(relation)) {
                chosen->required_by.insert(parent);
                return;
            }
        for (const auto& relation : group) {
            if (installed_named(relation.name))
                continue; // the base's own version is the one there is: never replaced
            const Package* package = candidate(relation);
            if (!package)
                continue;
            std::vector<std::string> next = chain;
            if (parent == "profile")
                next = { relation.name };
            else
                next.push_back(relation.text());
            choose(*package, next, parent);
            return;
        }
        throw unsatisfiable(group, chain);
    }

    void choose(const Package& package, const std::vector<std::string>& chain, const std::string& parent)
    {
        if (auto it = m_chosen.find(package.name); it != m_chosen.end())
            throw Error(ErrorCode::conflict,
                chain_text(chain) + ": " + package.name + " " + it->second.package->version.text()
                    + " is chosen already and does not satisfy it",
                "two packages need different versions of " + package.name
                    + "; pick the archive snapshot both come from");
        if (chain.size() > 200)
            throw Error(ErrorCode::invalid_input, chain_text(chain) + ": a dependency chain deeper than 200");
        m_chosen[package.name] = { &package, { parent } };
        for (const auto* field : { &package.pre_depends, &package.depends })
            for (const auto& group : *field)
                satisfy(group, chain, package.name);
    }

    Error unsatisfiable(const Alternatives& group, const std::vector<std::string>& chain) const
    {
        std::string wanted;
        for (const auto& relation : group)
            wanted += (wanted.empty() ? "" : " | ") + relation.text();
        std::string prefix = chain_text(chain) + " -> " + wanted + ": ";
        std::vector<std::string> why;
        for (const auto& relation : group) {
            if (!for_this_architecture(relation)) {
                why.push_back(relation.text() + " is for another architecture than " + m_request.architecture);
                continue;
            }
            for (const auto& package : m_installed)
                if (package.name == relation.name)
                    return Error(ErrorCode::conflict,
                        prefix + "the base has " + package.name + " " + package.version.text()
                            + ", which does not satisfy it, and dlenv does not upgrade the base's packages",
                        "use a newer base, or an archive snapshot as old as the base");
            auto it = m_available.find(relation.name);
            if (it == m_available.end()) {
                why.push_back("no package " + relation.name + " in the archive");
                continue;
            }
            std::string versions;
            for (const Package* package : it->second)
                versions += (versions.empty() ? "" : ", ") + package->version.text();
            why.push_back("no version of " + relation.name + " satisfies it; the archive has " + versions);
        }
        std::string text;
        for (const auto& reason : why)
            text += (text.empty() ? "" : "; ") + reason;
        return Error(ErrorCode::conflict, prefix + text,
            "the archive lacks what the package needs: use the suite it was built for, or another snapshot");
    }

    const InstallRequest& m_request;
    const std::vector<Package>& m_installed;
    std::map<std::string, std::vector<const Package*>> m_available;
    std::map<std::string, std::vector<const Package*>> m_providers;
    std::map<std::string, Chosen> m_chosen;
};

} // namespace

Resolution resolve_install(
    const InstallRequest& request, const std::vector<Package>& available, const std::vector<Package>& installed)
{
    return Resolver(request, available, installed).run();
}

} // namespace dlenv::deb
