// The relocatable CPython's layer: a python-build-standalone install_only archive moved
// under the prefix, read through oci's tar reader.
#include "core/error.h"
#include "core/file.h"
#include "image/runtime_layer.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

using namespace dlenv;
namespace fs = std::filesystem;
using Type = oci::LayerEntry::Type;

namespace {

// Writes runtime.tar.gz from `members`, a Python list of (name, kind, mode, data or link
// target), in that order.
void make_archive(const Scratch& scratch, const std::string& members)
{
    scratch.sh("python3 - <<'PY'\nimport io, tarfile\nwith tarfile.open('runtime.tar.gz', 'w:gz') as t:\n"
               "    for name, kind, mode, data in "
        + members
        + ":\n"
          "        info = tarfile.TarInfo(name)\n"
          "        info.mode = mode\n"
          "        info.mtime = 1234\n"
          "        info.uid = info.gid = 1000\n"
          "        if kind == 'dir': info.type = tarfile.DIRTYPE\n"
          "        elif kind == 'sym': info.type, info.linkname = tarfile.SYMTYPE, data\n"
          "        elif kind == 'hard': info.type, info.linkname = tarfile.LNKTYPE, data\n"
          "        else: info.size = len(data)\n"
          "        t.addfile(info, io.BytesIO(data.encode()) if kind == 'file' else None)\n"
          "PY");
}

struct Seen {
    std::string path;
    Type type;
    std::uint32_t mode;
    std::string data; // a file's bytes, a link's target
    bool operator==(const Seen&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Seen& seen)
{
    return out << seen.path << " " << static_cast<int>(seen.type) << " " << std::oct << seen.mode << std::dec << " "
               << seen.data;
}

std::vector<Seen> seen(const std::vector<oci::LayerEntry>& entries)
{
    std::vector<Seen> out;
    for (const auto& entry : entries)
        out.push_back({ entry.path, entry.type, entry.mode,
            entry.type == Type::file ? read_file(entry.source) : entry.link_target });
    std::sort(out.begin(), out.end(), [](const Seen& a, const Seen& b) { return a.path < b.path; });
    return out;
}

} // namespace

TEST_CASE("the runtime's python/ directory is placed under the prefix with its modes and links", "[image]")
{
    Scratch scratch;
    make_archive(scratch,
        "[('python', 'dir', 0o755, ''), ('python/bin', 'dir', 0o755, ''),"
        " ('python/bin/python3.11', 'file', 0o755, '#!/bin/sh\\necho 3.11\\n'),"
        " ('python/bin/python3', 'sym', 0o777, 'python3.11'),"
        " ('python/lib/python3.11/os.py', 'file', 0o644, 'import sys\\n'),"
        " ('python/share/z', 'file', 0o600, 'zz'), ('python/share/a', 'hard', 0o600, 'python/share/z')]");
    fs::create_directories(scratch / "staging");
    std::vector<Seen> entries
        = seen(image::runtime_entries(scratch / "runtime.tar.gz", "cpython.tar.gz", "usr/local", scratch / "staging"));
    // The hard-linked pair's data goes with the first path in layer order.
    CHECK(entries
        == std::vector<Seen> {
            { "usr", Type::directory, 0755, "" },
            { "usr/local", Type::directory, 0755, "" },
            { "usr/local/bin", Type::directory, 0755, "" },
            { "usr/local/bin/python3", Type::symlink, 0777, "python3.11" },
            { "usr/local/bin/python3.11", Type::file, 0755, "#!/bin/sh\necho 3.11\n" },
            { "usr/local/lib", Type::directory, 0755, "" },
            { "usr/local/lib/python3.11", Type::directory, 0755, "" },
            { "usr/local/lib/python3.11/os.py", Type::file, 0644, "import sys\n" },
            { "usr/local/share", Type::directory, 0755, "" },
            { "usr/local/share/a", Type::file, 0600, "zz" },
            { "usr/local/share/z", Type::hardlink, 0600, "usr/local/share/a" },
        });
}

TEST_CASE("a runtime archive with members outside python/ is refused, naming the member", "[image]")
{
    Scratch scratch;
    fs::create_directories(scratch / "staging");
    auto refusal = [&](const std::string& members) {
        make_archive(scratch, members);
        try {
            image::runtime_entries(scratch / "runtime.tar.gz", "cpython.tar.gz", "usr/local", scratch / "staging");
        } catch (const Error& e) {
            CHECK(e.code() == ErrorCode::invalid_input);
            return e.message();
        }
        return std::string("accepted");
    };
    CHECK(refusal("[('install/bin/python3', 'file', 0o755, '')]")
        == "cpython.tar.gz: member 'install/bin/python3': outside the archive's python/ directory");
    CHECK(refusal("[('python/../etc/passwd', 'file', 0o644, '')]")
        == "cpython.tar.gz: member 'python/../etc/passwd': path has a \"..\" component");
    CHECK(refusal("[('/python/bin/python3', 'file', 0o755, '')]")
        == "cpython.tar.gz: member '/python/bin/python3': absolute path");
    CHECK(refusal("[('python/bin/x', 'hard', 0o755, 'python/bin/missing')]")
        == "cpython.tar.gz: member 'python/bin/x': hard link to python/bin/missing, which is not an earlier file");
}
