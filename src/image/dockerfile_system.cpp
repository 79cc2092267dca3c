#include "image/dockerfile_system.h"

#include "core/error.h"
#include "core/file.h"
#include "store/artifacts.h"

#include <map>
#include <set>

namespace dlenv::image {
namespace {

const std::vector<lock::LockedDeb>& locked_debs(const lock::Lockfile& lock)
{
    static const std::vector<lock::LockedDeb> none;
    return lock.system_packages() ? lock.system_packages()->packages : none;
}

// needs[p]: the packages of the lock p depends or pre-depends on (q with p in its required_by).
std::vector<std::set<std::size_t>> needs_of(const std::vector<lock::LockedDeb>& debs)
{
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < debs.size(); ++i)
        index[debs[i].name] = i;
    std::vector<std::set<std::size_t>> needs(debs.size());
    for (std::size_t q = 0; q < debs.size(); ++q)
        for (const auto& name : debs[q].required_by)
            if (auto p = index.find(name); p != index.end() && p->second != q)
                needs[p->second].insert(q);
    return needs;
}

// reach[p]: every package p needs, directly or through others.
std::vector<std::set<std::size_t>> reach_of(const std::vector<std::set<std::size_t>>& needs)
{
    std::vector<std::set<std::size_t>> reach(needs.size());
    for (std::size_t p = 0; p < needs.size(); ++p) {
        std::vector<std::size_t> pending(needs[p].begin(), needs[p].end());
        while (!pending.empty()) {
            std::size_t q = pending.back();
            pending.pop_back();
            if (reach[p].insert(q).second)
                pending.insert(pending.end(), needs[q].begin(), needs[q].end());
        }
    }
    return reach;
}

} // namespace

std::vector<std::vector<lock::LockedDeb>> install_groups(const lock::Lockfile& lock)
{
    const std::vector<lock::LockedDeb>& debs = locked_debs(lock);
    std::vector<std::set<std::size_t>> needs = needs_of(debs);
    std::vector<std::set<std::size_t>> reach = reach_of(needs);
    // p's cycle: p and every package that p needs and that needs p.
    auto in_cycle_of = [&](std::size_t p, std::size_t q) { return p == q || (reach[p].count(q) && reach[q].count(p)); };
    std::vector<bool> done(debs.size(), false);
    std::vector<std::vector<lock::LockedDeb>> groups;
    for (std::size_t left = debs.size(); left > 0;) {
        // A cycle is ready when nothing any of its packages needs is left outside it.
        std::vector<std::size_t> ready;
        for (std::size_t p = 0; p < debs.size(); ++p) {
            bool cycle_ready = !done[p];
            for (std::size_t r = 0; cycle_ready && r < debs.size(); ++r)
                if (in_cycle_of(p, r))
                    for (std::size_t q : needs[r])
                        cycle_ready = cycle_ready && (done[q] || in_cycle_of(p, q));
            if (cycle_ready)
                ready.push_back(p);
        }
        std::vector<lock::LockedDeb> group;
        for (std::size_t p : ready) {
            done[p] = true;
            group.push_back(debs[p]);
        }
        left -= ready.size();
        groups.push_back(std::move(group));
    }
    return groups;
}

std::string system_steps(const lock::Lockfile& lock)
{
    const auto& section = lock.system_packages();
    if (!section || section->packages.empty())
        return "# The lock pins no system packages.";
    std::vector<std::vector<lock::LockedDeb>> groups = install_groups(lock);
    const std::string dir(k_docker_debs_dir);
    std::string out = "# The lock's " + std::to_string(section->packages.size()) + " system packages from "
        + section->archive.url
        + ", installed by the image's own dpkg\n"
          "# into the files `dlenv build` unpacks them to, with the same entries in dpkg's database\n"
          "# (/var/lib/dpkg/status, info/). Each .deb comes from debs/ of the context, bind-mounted\n"
          "# for this step only and checked against the sha256 the lock pins; nothing is downloaded.\n"
          "# dpkg installs them in "
        + std::to_string(groups.size())
        + " groups, each after the packages its Depends and Pre-Depends name,\n"
          "# then the triggers they left pending.\n"
          "# What differs: dpkg runs the packages' maintainer scripts and their triggers, which\n"
          "# `dlenv build` does not (it makes only the links of their update-alternatives), so\n"
          "# this image also holds what those write (Python's byte-code in __pycache__/, ldconfig's\n"
          "# /etc/ld.so.cache, dpkg's logs and status-old, directories a postinst makes), and\n"
          "# dpkg writes each package's status fields in its own order.\n"
        + "RUN --mount=type=bind,source=debs,target=" + dir + " cd " + dir
        + " \\\n    && sha256sum --check --strict --quiet SHA256SUMS";
    for (const auto& group : groups) {
        out += " \\\n    && DEBIAN_FRONTEND=noninteractive dpkg --install";
        for (const auto& deb : group)
            out += " " + deb.filename; // Debian's characters only, as the lock checked
    }
    // A trigger a group activated in a package it did not install (debianutils' shells.d)
    // stays pending until dpkg is asked to run it, as apt asks at its end.
    return out + " \\\n    && dpkg --triggers-only --pending";
}

void write_context_debs(const lock::Lockfile& lock, const store::Store* store, const std::filesystem::path& dir)
{
    std::string sums;
    for (const auto& deb : locked_debs(lock)) {
        std::optional<std::filesystem::path> artifact = store ? store::find_artifact(*store, deb.sha256) : std::nullopt;
        if (!artifact)
            throw Error(ErrorCode::not_found,
                "copy " + deb.filename + " into the build context: the store has no artifact sha256:" + deb.sha256,
                "run `dlenv fetch` with the lock first, where the archive can be reached");
        copy_file_atomic(*artifact, dir / deb.filename);
        sums += deb.sha256 + "  " + deb.filename + "\n";
    }
    if (!sums.empty())
        write_file_atomic(dir / "SHA256SUMS", sums);
}

} // namespace dlenv::image
