#include "image/system_layer.h"

#include "core/error.h"
#include "core/file.h"
#include "core/sha256.h"
#include "deb/alternatives.h"
#include "deb/control.h"
#include "deb/deb_file.h"
#include "deb/dpkg_database.h"
#include "rootfs/path.h"
#include "store/artifacts.h"

#include <fstream>
#include <map>
#include <optional>

namespace dlenv::image {
namespace {

// Changes whenever the way the layer is made from the same .debs changes.
constexpr std::string_view k_layer_format = "dlenv.system-layer/v1";

const std::vector<std::string> k_scripts = { "preinst", "postinst" };

// Puts the .debs' files into one layer's entries, each path through the base's top-level
// links, and remembers what dpkg's database must say of them.
class Unpacker {
public:
    Unpacker(const BaseFilesystem& base, std::filesystem::path staging)
        : m_base(base)
        , m_staging(std::move(staging))
    {
    }

    void add(const lock::LockedDeb& deb, const std::filesystem::path& file)
    {
        deb::UnpackedPackage package { deb.name, deb.architecture, "", {}, {}, {} };
        std::map<std::string, std::filesystem::path> unpacked; // package path -> staged file
        deb::read_deb(
            file, deb.filename, [&](const std::map<std::string, std::string>& control) { package.control = control; },
            [&](const deb::DataMember& member, const std::function<std::string_view()>& read) {
                if (std::optional<std::filesystem::path> staged = add_member(deb.filename, member, read, package.paths))
                    unpacked[package.paths.back()] = *staged;
            });
        if (auto conffiles = package.control.find("conffiles"); conffiles != package.control.end())
            for (const auto& path : deb::conffile_paths(conffiles->second))
                if (auto staged = unpacked.find(path); staged != unpacked.end())
                    package.conffile_md5[path] = md5_hex(read_file(staged->second));
        if (auto control = package.control.find("control"); control != package.control.end())
            package.multi_arch
                = deb::parse_single_stanza(deb.filename + ": control", control->second).find("Multi-Arch").value_or("");
        for (const auto& script : k_scripts)
            if (package.control.contains(script))
                m_not_run[script].push_back(deb.name);
        if (auto postinst = package.control.find("postinst"); postinst != package.control.end())
            for (auto& alternative : deb::installed_alternatives(postinst->second))
                m_alternatives.push_back(std::move(alternative));
        m_packages.push_back(std::move(package));
    }

    std::vector<oci::LayerEntry> finish(std::vector<std::string>& notes)
    {
        for (const auto& [path, file] : deb::dpkg_database(m_base.system.dpkg_status, m_packages))
            add_entry("dpkg's database",
                { path, oci::LayerEntry::Type::file, file.mode, {}, file.contents,
                    static_cast<std::int64_t>(file.contents.size()), {}, {} });
        deb::AlternativeFiles alternatives = deb::alternative_files(m_alternatives);
        for (const auto& [link, target] : alternatives.symlinks) {
            std::string path = through_links(rootfs::split_path(link), false).value_or(link);
            if (m_entries.contains(path) && m_entries.at(path).type != oci::LayerEntry::Type::symlink) {
                notes.push_back("alternative link /" + link + " not made: a package ships that path");
                continue;
            }
            m_entries[path] = { path, oci::LayerEntry::Type::symlink, 0777, {}, {}, 0, target, {} };
            add_parents_of(path);
        }
        for (const auto& [path, contents] : alternatives.admin_files)
            add_entry("update-alternatives",
                { path, oci::LayerEntry::Type::file, 0644, {}, contents, static_cast<std::int64_t>(contents.size()), {},
                    {} });
        for (const auto& alternative : m_alternatives)
            notes.push_back("alternative " + alternative.name + ": " + alternative.link + " -> " + alternative.path
                + ", as its postinst's update-alternatives --install would make it");
        for (const auto& [script, packages] : m_not_run) {
            std::string names;
            for (const auto& name : packages)
                names += (names.empty() ? "" : ", ") + name;
            notes.push_back(script + " scripts not run (dlenv runs no package manager): " + names);
        }
        std::vector<oci::LayerEntry> entries;
        for (auto& [path, entry] : m_entries)
            entries.push_back(std::move(entry));
        return entries;
    }

private:
    Error refuse(const std::string& deb, const std::string& member, const std::string& why) const
    {
        return Error(ErrorCode::invalid_input, deb + ": data.tar: " + member.substr(0, 256) + ": " + why,
            "a package whose paths are unsafe is not installed; take the .deb from a trusted archive");
    }

    // The layer's path for a package's path: its directories followed through the base's
    // links (a merged-/usr base's "lib" -> "usr/lib"), as dpkg follows them on disk, and the
    // last component too when it is a directory; nullopt for more links than Linux follows.
    std::optional<std::string> through_links(const std::vector<std::string>& parts, bool last_too) const
    {
        std::vector<std::string> done;
        int hops = 0;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            done.push_back(parts[i]);
            if (i + 1 == parts.size() && !last_too)
                break;
            for (auto link = m_base.links.find(rootfs::join_path(done)); link != m_base.links.end();
                 link = m_base.links.find(rootfs::join_path(done))) {
                if (++hops > rootfs::k_max_links)
                    return std::nullopt;
                done = rootfs::split_path(link->second);
            }
        }
        return rootfs::join_path(done);
    }

    void add_parents_of(const std::string& path)
    {
        for (std::size_t slash = path.find('/'); slash != std::string::npos; slash = path.find('/', slash + 1)) {
            std::string parent = path.substr(0, slash);
            if (!m_entries.contains(parent))
                m_entries[parent] = { parent, oci::LayerEntry::Type::directory, 0755, {}, {}, 0, {}, {} };
        }
    }

    void add_entry(const std::string& owner, oci::LayerEntry entry)
    {
        auto existing = m_owner.find(entry.path);
        if (existing != m_owner.end())
            throw Error(ErrorCode::conflict, owner + " and " + existing->second + " both ship /" + entry.path,
                "dlenv installs no package over another's files; drop one of them from system_packages");
        m_owner[entry.path] = owner;
        add_parents_of(entry.path);
        m_entries[entry.path] = std::move(entry);
    }

    // Where a regular file's bytes were staged, for what dpkg's database records of them.
    std::optional<std::filesystem::path> add_member(const std::string& deb, const deb::DataMember& member,
        const std::function<std::string_view()>& read, std::vector<std::string>& paths)
    {
        std::vector<std::string> parts = rootfs::split_path(member.path);
        if (member.path.starts_with('/'))
            throw refuse(deb, member.path, "an absolute path");
        for (const auto& part : parts)
            if (part == "..")
                throw refuse(deb, member.path, "a \"..\" component");
        if (std::string problem = rootfs::path_length_problem(member.path); !problem.empty())
            throw refuse(deb, member.path, problem);
        paths.push_back(parts.empty() ? "/." : "/" + rootfs::join_path(parts));
        if (parts.empty())
            return std::nullopt;
        using Type = deb::DataMember::Type;
        std::optional<std::string> followed = through_links(parts, member.type == Type::directory);
        if (!followed)
            throw refuse(deb, member.path, "more links of the base on its way than Linux follows");
        std::string path = *followed;
        oci::LayerEntry entry { path, oci::LayerEntry::Type::file, member.mode, {}, {}, 0, {}, {} };
        switch (member.type) {
        case Type::directory:
            if (auto it = m_entries.find(path); it != m_entries.end()) {
                if (it->second.type != oci::LayerEntry::Type::directory)
                    throw refuse(deb, member.path, "a directory where " + m_owner[path] + " put a file");
                return std::nullopt;
            }
            add_parents_of(path);
            m_entries[path] = { path, oci::LayerEntry::Type::directory, member.mode, {}, {}, 0, {}, {} };
            return std::nullopt;
        case Type::file:
            entry.source = m_staging / std::to_string(m_files++);
            entry.size = copy_out(read, entry.source);
            break;
        case Type::symlink:
            entry.type = oci::LayerEntry::Type::symlink;
            entry.mode = 0777;
            entry.link_target = member.link_target;
            break;
        case Type::hardlink: {
            std::optional<std::string> target = rootfs::normalize_path("/" + member.link_target);
            std::string mapped = target ? through_links(rootfs::split_path(*target), false).value_or("") : "";
            auto it = m_entries.find(mapped);
            auto owner = m_owner.find(mapped);
            if (it == m_entries.end() || it->second.type != oci::LayerEntry::Type::file || owner == m_owner.end()
                || owner->second != deb)
                throw refuse(deb, member.path, "a hard link to " + member.link_target + ", no earlier file of it");
            entry.type = oci::LayerEntry::Type::hardlink;
            entry.link_target = mapped;
            break;
        }
        case Type::other:
            throw refuse(deb, member.path, "devices, fifos and sockets are not installed");
        }
        std::optional<std::filesystem::path> staged;
        if (entry.type == oci::LayerEntry::Type::file)
            staged = entry.source;
        add_entry(deb, std::move(entry));
        return staged;
    }

    static std::int64_t copy_out(const std::function<std::string_view()>& read, const std::filesystem::path& to)
    {
        std::ofstream out(to, std::ios::binary);
        std::int64_t size = 0;
        for (std::string_view piece = read(); !piece.empty(); piece = read()) {
            out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
            size += static_cast<std::int64_t>(piece.size());
        }
        out.close();
        if (!out)
            throw Error(ErrorCode::io, "write " + to.string() + ": failed");
        return size;
    }

    const BaseFilesystem& m_base;
    std::filesystem::path m_staging;
    std::size_t m_files = 0;
    std::map<std::string, oci::LayerEntry> m_entries;
    std::map<std::string, std::string> m_owner; // path -> the .deb that ships it
    std::vector<deb::UnpackedPackage> m_packages;
    std::vector<deb::Alternative> m_alternatives;
    std::map<std::string, std::vector<std::string>> m_not_run; // script -> packages
};

std::filesystem::path fetched_deb(const store::Store& store, const lock::LockedDeb& deb)
{
    std::optional<std::filesystem::path> path = store::find_artifact(store, deb.sha256);
    if (!path)
        throw Error(ErrorCode::not_found, deb.filename + " (sha256 " + deb.sha256 + ") is not in the store",
            "run `dlenv fetch` with the lock, where the archive can be reached");
    std::string actual = sha256_file_hex(*path);
    if (actual != deb.sha256)
        throw Error(ErrorCode::verification_failed,
            path->string() + " has sha256 " + actual + ", the lock pins " + deb.sha256 + " for " + deb.filename,
            "`dlenv fsck` finds damaged artifacts; `dlenv fetch` brings the file again");
    return *path;
}

} // namespace

std::optional<SystemLayer> system_packages_layer(
    const lock::Lockfile& lock, const BaseFilesystem& base, oci::Compression compression)
{
    const auto& section = lock.system_packages();
    if (!section)
        return std::nullopt;
    std::string status_sha256 = sha256_hex(base.system.dpkg_status);
    if (status_sha256 != section->base_status_sha256)
        throw Error(ErrorCode::conflict,
            "the base's /var/lib/dpkg/status is not the one the system packages were locked against (sha256 "
                + status_sha256 + ", locked " + section->base_status_sha256 + ")",
            "run `dlenv lock` again on this base");
    nlohmann::json debs = nlohmann::json::array();
    for (const auto& deb : section->packages)
        debs.push_back({ { "name", deb.name }, { "sha256", deb.sha256 } });
    nlohmann::json inputs = { { "layer", k_layer_format }, { "debs", debs }, { "base_status_sha256", status_sha256 },
        { "links", base.links } };
    auto notes = std::make_shared<std::vector<std::string>>();
    std::int64_t epoch = lock.image().source_date_epoch;
    PlannedLayer layer { "system packages layer",
        "dlenv build: " + std::to_string(section->packages.size()) + " system packages (" + section->archive.url + ")",
        layer_cache_key(inputs, epoch, compression),
        [packages = section->packages, base, notes](const store::Store& store, const std::filesystem::path& staging) {
            Unpacker unpacker(base, staging);
            for (const auto& deb : packages)
                unpacker.add(deb, fetched_deb(store, deb));
            return unpacker.finish(*notes);
        },
        true };
    return SystemLayer { std::move(layer), notes };
}

} // namespace dlenv::image
