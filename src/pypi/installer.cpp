#include "pypi/installer.h"

#include "core/error.h"
#include "core/file.h"
#include "core/sha256.h"
#include "pypi/entry_points.h"
#include "pypi/metadata.h"
#include "pypi/wheel_archive.h"
#include "pypi/wheel_name.h"

#include <algorithm>
#include <map>

namespace dlenv::pypi {
namespace {

namespace fs = std::filesystem;

// The tree is a staging area that becomes a layer, and the layer's blob is what is made
// durable: an fsync per file would cost more than the unpacking.
constexpr AtomicFile::Durability k_durability = AtomicFile::Durability::staged;

// RECORD's hash form: "sha256=" and the digest in urlsafe base64 without padding.
std::string record_hash(const std::string& hex)
{
    static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string bytes;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
        bytes += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
    std::string out = "sha256=";
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        std::uint32_t chunk = static_cast<unsigned char>(bytes[i]) << 16;
        if (i + 1 < bytes.size())
            chunk |= static_cast<unsigned char>(bytes[i + 1]) << 8;
        if (i + 2 < bytes.size())
            chunk |= static_cast<unsigned char>(bytes[i + 2]);
        std::size_t chars = std::min<std::size_t>(4, (bytes.size() - i) * 4 / 3 + 1);
        for (std::size_t c = 0; c < chars; ++c)
            out += alphabet[(chunk >> (18 - 6 * c)) & 63];
    }
    return out;
}

// The first field of each RECORD row (CSV: a path with a comma comes quoted) and its hash.
std::map<std::string, std::string> parse_record(std::string_view text)
{
    std::map<std::string, std::string> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        std::string line(text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos));
        pos = end == std::string_view::npos ? text.size() : end + 1;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty())
            continue;
        std::string path;
        std::size_t i = 0;
        if (line.front() == '"') {
            for (i = 1; i < line.size(); ++i) {
                if (line[i] == '"' && i + 1 < line.size() && line[i + 1] == '"')
                    path += line[++i];
                else if (line[i] == '"')
                    break;
                else
                    path += line[i];
            }
            i = line.find(',', i);
        } else {
            i = line.find(',');
            path = line.substr(0, i);
        }
        std::string rest = i == std::string::npos ? "" : line.substr(i + 1);
        out[path] = rest.substr(0, rest.find(','));
    }
    return out;
}

std::string join(const std::string& dir, const std::string& rest)
{
    return dir.empty() ? rest : dir + "/" + rest;
}

// A member path that stays inside the directory it is unpacked into.
bool is_safe(const std::string& path)
{
    if (path.empty() || path.front() == '/' || path.find('\\') != std::string::npos)
        return false;
    for (const auto& part : fs::path(path))
        if (part == ".." || part == "." || part.empty())
            return false;
    return true;
}

class Installation {
public:
    Installation(const fs::path& wheel, const InstallScheme& scheme, const fs::path& root)
        : m_wheel(wheel)
        , m_filename(wheel.filename().string())
        , m_scheme(scheme)
        , m_root(root)
    {
    }

    InstalledWheel run()
    {
        read_dist_info();
        WheelArchive archive(m_wheel);
        while (auto member = archive.next())
            if (!member->directory && member->path != m_dist_info + "/RECORD")
                unpack(archive, *member);
        for (const auto& entry : m_scripts) {
            std::string path = join(m_scheme.scripts, entry.name);
            std::string text = script_text(entry, m_scheme.interpreter);
            write(path, text, 0755);
        }
        write(join(m_lib, m_dist_info + "/INSTALLER"), "dlenv\n", 0644);
        return finish();
    }

private:
    Error malformed(const std::string& why) const
    {
        return Error(ErrorCode::invalid_input, "install wheel " + m_filename + ": " + why,
            "the wheel is malformed: rebuild it or use the file the project published");
    }

    void read_dist_info()
    {
        WheelName name = WheelName::parse(m_filename);
        std::vector<std::string> paths;
        std::map<std::string, std::string> files; // dist-info-relative path -> contents, for every dist-info
        WheelArchive archive(m_wheel);
        while (auto member = archive.next()) {
            paths.push_back(member->path);
            std::size_t slash = member->path.find('/');
            std::string file = slash == std::string::npos ? "" : member->path.substr(slash + 1);
            if (file == "RECORD" || file == "WHEEL" || file == "METADATA" || file == "entry_points.txt")
                files[member->path] = archive.read_all();
        }
        m_dist_info = dist_info_directory(paths, name.key(), m_filename);
        auto required = [&](const std::string& file) {
            auto it = files.find(m_dist_info + "/" + file);
            if (it == files.end())
                throw malformed("it has no " + m_dist_info + "/" + file);
            return it->second;
        };
        Metadata metadata = Metadata::parse(required("METADATA"), m_filename + ":" + m_dist_info + "/METADATA");
        m_name = metadata.name;
        m_version = metadata.version;
        m_expected = parse_record(required("RECORD"));
        std::string wheel = required("WHEEL");
        bool purelib = wheel.find("Root-Is-Purelib: true") != std::string::npos;
        m_lib = purelib ? m_scheme.purelib : m_scheme.platlib;
        m_data = m_dist_info.substr(0, m_dist_info.size() - std::string(".dist-info").size()) + ".data/";
        if (auto it = files.find(m_dist_info + "/entry_points.txt"); it != files.end())
            m_scripts = scripts_of_entry_points(it->second, m_scheme.python, m_filename + ":" + it->first);
    }

    // Where `path` goes: .data/<key>/ by key, everything else to the library directory.
    std::string destination(const std::string& path) const
    {
        if (!path.starts_with(m_data))
            return join(m_lib, path);
        std::string rest = path.substr(m_data.size());
        std::size_t slash = rest.find('/');
        std::string key = rest.substr(0, slash);
        std::string inner = slash == std::string::npos ? "" : rest.substr(slash + 1);
        if (inner.empty())
            throw malformed("'" + path + "' is not inside a .data/ directory");
        if (key == "purelib")
            return join(m_scheme.purelib, inner);
        if (key == "platlib")
            return join(m_scheme.platlib, inner);
        if (key == "scripts")
            return join(m_scheme.scripts, inner);
        if (key == "data")
            return join(m_scheme.data, inner);
        if (key == "headers")
            return join(join(m_scheme.headers, m_name), inner);
        throw malformed("'" + path + "' is in an unknown .data/ directory '" + key + "'");
    }

    void unpack(WheelArchive& archive, const WheelMember& member)
    {
        if (!is_safe(member.path))
            throw malformed("member '" + member.path + "' leaves the directory it is unpacked into");
        auto expected = m_expected.find(member.path);
        if (expected == m_expected.end() || expected->second.empty())
            throw Error(ErrorCode::verification_failed,
                "install wheel " + m_filename + ": '" + member.path + "' is not listed with a hash in RECORD",
                "the wheel was altered after it was built: use the file the project published");
        std::string path = destination(member.path);
        unsigned mode = member.executable ? 0755 : 0644;
        std::string want = expected->second;
        while (want.ends_with("="))
            want.pop_back();
        if (member.path.starts_with(m_data + "scripts/")) {
            std::string bytes = archive.read_all();
            check_hash(member.path, sha256_hex(bytes), want);
            // pip's rule: a script whose first line starts with #!python gets the
            // target's interpreter, with the rest of that line dropped.
            if (bytes.starts_with("#!python")) {
                std::size_t newline = bytes.find('\n');
                bytes = "#!" + m_scheme.interpreter + "\n"
                    + (newline == std::string::npos ? "" : bytes.substr(newline + 1));
            }
            write(path, bytes, mode);
            return;
        }
        // Streamed: a member can be a gigabyte of CUDA kernels. It only appears under
        // its name once its hash is known to be right.
        AtomicFile file(m_root / path, mode, k_durability);
        Sha256 hash;
        std::uint64_t size = 0;
        for (std::string_view piece = archive.read_data(); !piece.empty(); piece = archive.read_data()) {
            hash.update(piece);
            file.write(piece);
            size += piece.size();
        }
        std::string hex = hash.hex_digest();
        check_hash(member.path, hex, want);
        file.commit();
        m_written[path] = record_hash(hex) + "," + std::to_string(size);
    }

    void check_hash(const std::string& member, const std::string& hex, const std::string& want) const
    {
        std::string have = record_hash(hex);
        if (have != want)
            throw Error(ErrorCode::verification_failed,
                "install wheel " + m_filename + ": '" + member + "' has " + have + ", RECORD says " + want,
                "the wheel was altered after it was built: use the file the project published");
    }

    void write(const std::string& path, std::string_view bytes, unsigned mode)
    {
        AtomicFile file(m_root / path, mode, k_durability);
        file.write(bytes);
        file.commit();
        m_written[path] = record_hash(sha256_hex(bytes)) + "," + std::to_string(bytes.size());
    }

    InstalledWheel finish()
    {
        std::string record_path = join(m_lib, m_dist_info + "/RECORD");
        fs::path base = m_lib.empty() ? fs::path(".") : fs::path(m_lib);
        std::map<std::string, std::string> rows; // sorted like pip's
        for (const auto& [path, hash_size] : m_written)
            rows[fs::path(path).lexically_relative(base).generic_string()] = hash_size;
        rows[fs::path(record_path).lexically_relative(base).generic_string()] = ",";
        // Rows end in CRLF, as Python's csv module (and so pip) writes them.
        std::string record;
        for (const auto& [path, hash_size] : rows)
            record += (path.find_first_of(",\"") == std::string::npos ? path : quote(path)) + "," + hash_size + "\r\n";
        AtomicFile file(m_root / record_path, 0644, k_durability);
        file.write(record);
        file.commit();

        InstalledWheel out { m_name, m_version, {} };
        for (const auto& [path, hash_size] : m_written)
            out.files.push_back(path);
        out.files.push_back(record_path);
        std::sort(out.files.begin(), out.files.end());
        return out;
    }

    static std::string quote(const std::string& path)
    {
        std::string out = "\"";
        for (char c : path)
            out += c == '"' ? std::string("\"\"") : std::string(1, c);
        return out + "\"";
    }

    fs::path m_wheel;
    std::string m_filename;
    const InstallScheme& m_scheme;
    fs::path m_root;
    std::string m_dist_info; // "demo_pkg-1.0.dist-info"
    std::string m_data; // "demo_pkg-1.0.data/"
    std::string m_lib; // purelib or platlib
    std::string m_name;
    Pep440Version m_version;
    std::map<std::string, std::string> m_expected; // RECORD of the wheel: path -> hash
    std::vector<ScriptEntry> m_scripts;
    std::map<std::string, std::string> m_written; // path under root -> "hash,size"
};

} // namespace

InstallScheme InstallScheme::for_prefix(const std::string& prefix, const PythonVersion& python)
{
    std::string version = python.truncated(2).text();
    std::string lib = join(prefix, "lib/python" + version + "/site-packages");
    return InstallScheme { lib, lib, join(prefix, "bin"), prefix, join(prefix, "include/python" + version),
        "/" + join(prefix, "bin/python" + version), python };
}

InstallScheme InstallScheme::debian_local(const PythonVersion& python, const std::string& interpreter)
{
    std::string version = python.truncated(2).text();
    std::string lib = "usr/local/lib/python" + version + "/dist-packages";
    return InstallScheme { lib, lib, "usr/local/bin", "usr/local", "usr/include/python" + version, interpreter,
        python };
}

InstalledWheel install_wheel(
    const std::filesystem::path& wheel, const InstallScheme& scheme, const std::filesystem::path& root)
{
    return Installation(wheel, scheme, root).run();
}

} // namespace dlenv::pypi
