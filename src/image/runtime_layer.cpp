#include "image/runtime_layer.h"

#include "core/error.h"
#include "core/file.h"
#include "oci/file_source.h"
#include "oci/tar_reader.h"
#include "rootfs/path.h"
#include "store/artifacts.h"

#include <algorithm>
#include <map>
#include <set>

namespace dlenv::image {
namespace {

// Bumped when the same archive would give different entries.
constexpr std::string_view k_format = "dlenv.runtime-layer/v1";
constexpr std::string_view k_top = "python";

class RuntimeReader {
public:
    RuntimeReader(std::string name, std::string prefix, std::filesystem::path staging)
        : m_name(std::move(name))
        , m_prefix(std::move(prefix))
        , m_staging(std::move(staging))
    {
    }

    void add(const oci::TarEntry& member, oci::TarReader& tar)
    {
        std::string path = placed(member.path);
        if (path.empty())
            return; // python/ itself: the prefix stands for it
        oci::LayerEntry entry { path, oci::LayerEntry::Type::file, member.mode & 07777, {}, {}, 0, {}, {} };
        switch (member.type) {
        case oci::TarEntry::Type::directory:
            entry.type = oci::LayerEntry::Type::directory;
            break;
        case oci::TarEntry::Type::symlink:
            entry.type = oci::LayerEntry::Type::symlink;
            entry.link_target = member.link_target;
            break;
        case oci::TarEntry::Type::hardlink: {
            // A tar's hard link names an earlier member.
            entry.type = oci::LayerEntry::Type::hardlink;
            entry.link_target = placed(member.link_target);
            auto target = m_entries.find(entry.link_target);
            if (target == m_entries.end() || target->second.type != oci::LayerEntry::Type::file)
                throw refuse(member.path, "hard link to " + member.link_target + ", which is not an earlier file");
            break;
        }
        case oci::TarEntry::Type::file:
            entry.source = m_staging / std::to_string(m_files++);
            entry.size = copy_data(tar, entry.source);
            break;
        case oci::TarEntry::Type::other:
            throw refuse(member.path, "devices, fifos and sockets are not unpacked");
        }
        m_entries[path] = std::move(entry); // a later member of the same path replaces it, as tar does
    }

    std::vector<oci::LayerEntry> finish() &&
    {
        order_hard_links();
        std::vector<oci::LayerEntry> out;
        std::set<std::string> directories;
        for (const auto& [path, entry] : m_entries)
            if (entry.type == oci::LayerEntry::Type::directory)
                directories.insert(path);
        if (!m_prefix.empty())
            add_parents(out, directories, m_prefix + "/");
        for (auto& [path, entry] : m_entries) {
            add_parents(out, directories, path);
            out.push_back(std::move(entry));
        }
        return out;
    }

private:
    // A layer is unpacked in path order, so the data of each set of hard-linked files goes
    // with the first of their paths and the others link to it, whichever the archive wrote
    // first.
    void order_hard_links()
    {
        std::map<std::string, std::set<std::string>> links; // file -> the paths linked to it
        for (const auto& [path, entry] : m_entries) {
            if (entry.type != oci::LayerEntry::Type::hardlink)
                continue;
            auto target = m_entries.find(entry.link_target);
            if (target == m_entries.end() || target->second.type != oci::LayerEntry::Type::file)
                throw refuse(path, "hard link to " + entry.link_target + ", which a later member replaced");
            links[entry.link_target].insert(path);
        }
        for (const auto& [file, paths] : links) {
            const std::string& first = std::min(file, *paths.begin());
            if (first != file) {
                oci::LayerEntry data = std::move(m_entries[file]);
                data.path = first;
                m_entries[file] = { file, oci::LayerEntry::Type::hardlink, data.mode, {}, {}, 0, first, {} };
                m_entries[first] = std::move(data);
            }
            for (const auto& path : paths)
                if (path != first)
                    m_entries[path].link_target = first;
        }
    }

    Error refuse(const std::string& member, const std::string& why) const
    {
        return Error(ErrorCode::invalid_input, m_name + ": member '" + member + "': " + why,
            "use python-build-standalone's install_only archive, whose one top directory is python/");
    }

    // `member` under the prefix, without the top directory; "" for the top directory.
    std::string placed(const std::string& member) const
    {
        if (member.starts_with('/'))
            throw refuse(member, "absolute path");
        std::vector<std::string> parts;
        for (std::size_t start = 0; start <= member.size();) {
            std::size_t slash = std::min(member.find('/', start), member.size());
            std::string part = member.substr(start, slash - start);
            if (part == "..")
                throw refuse(member, "path has a \"..\" component");
            if (!part.empty() && part != ".")
                parts.push_back(part);
            start = slash + 1;
        }
        if (parts.empty() || parts.front() != k_top)
            throw refuse(member, "outside the archive's python/ directory");
        std::string out = m_prefix;
        for (std::size_t i = 1; i < parts.size(); ++i)
            out += (out.empty() ? "" : "/") + parts[i];
        return parts.size() == 1 ? "" : out;
    }

    static std::int64_t copy_data(oci::TarReader& tar, const std::filesystem::path& to)
    {
        // Staging for a layer: the blob it becomes is what is made durable.
        AtomicFile file(to, 0600, AtomicFile::Durability::staged);
        std::int64_t size = 0;
        for (std::string_view piece = tar.read_data(); !piece.empty(); piece = tar.read_data()) {
            file.write(piece);
            size += static_cast<std::int64_t>(piece.size());
        }
        file.commit();
        return size;
    }

    std::string m_name;
    std::string m_prefix;
    std::filesystem::path m_staging;
    std::map<std::string, oci::LayerEntry> m_entries; // by path in the image
    std::size_t m_files = 0; // names the next file in staging
};

} // namespace

std::vector<oci::LayerEntry> runtime_entries(const std::filesystem::path& archive, const std::string& name,
    const std::string& prefix, const std::filesystem::path& staging)
{
    oci::FileSource file(archive);
    oci::TarReader tar([&] { return file.next(); }, name);
    RuntimeReader reader(name, prefix, staging);
    while (auto member = tar.next())
        reader.add(*member, tar);
    return std::move(reader).finish();
}

std::optional<PlannedLayer> runtime_layer(const lock::Lockfile& lock, std::int64_t epoch, oci::Compression compression)
{
    const lock::PythonEnvironment& python = lock.python();
    if (!python.runtime)
        return std::nullopt;
    std::string key = layer_cache_key(
        { { "runtime", k_format }, { "prefix", python.prefix }, { "sha256", python.runtime->sha256 } }, epoch,
        compression);
    lock::PythonRuntime runtime = *python.runtime;
    std::string prefix = rootfs::relative_path(python.prefix);
    return PlannedLayer { "runtime layer", "dlenv build: Python " + python.version + " runtime into " + python.prefix,
        key,
        [runtime, prefix](const store::Store& store, const std::filesystem::path& staging) {
            std::optional<std::filesystem::path> archive = store::find_artifact(store, runtime.sha256);
            if (!archive)
                throw Error(ErrorCode::not_found,
                    "the store has no artifact sha256:" + runtime.sha256 + " (" + runtime.url + ")",
                    "run `dlenv fetch` with the lock, then build again");
            return runtime_entries(*archive, runtime.url, prefix, staging);
        },
        true };
}

} // namespace dlenv::image
