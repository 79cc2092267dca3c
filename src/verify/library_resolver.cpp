#include "verify/library_resolver.h"

#include "core/error.h"
#include "core/file.h"
#include "rootfs/lookup.h"
#include "verify/elf.h"

#include <fnmatch.h>

#include <algorithm>
#include <deque>
#include <set>
#include <sstream>

namespace dlenv::verify {
namespace {

const std::vector<std::string> k_default_dirs = {
    "/lib",
    "/usr/lib",
    "/lib64",
    "/usr/lib64",
    "/lib/x86_64-linux-gnu",
    "/usr/lib/x86_64-linux-gnu",
    "/lib/aarch64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
};

std::string image_path_of(const std::filesystem::path& root, const std::filesystem::path& host)
{
    return "/" + host.lexically_relative(root).generic_string();
}

// Expands an `include` pattern of ld.so.conf (a glob in its last component only, as in
// every distribution's file) to the matching files, sorted as glob(3) sorts them.
std::vector<std::string> expand_include(const std::filesystem::path& root, const std::string& pattern)
{
    std::filesystem::path as_path(pattern);
    auto dir = rootfs::lookup(root, as_path.parent_path().string());
    std::vector<std::string> out;
    std::error_code ec;
    if (!dir || !std::filesystem::is_directory(*dir, ec))
        return out;
    std::string leaf = as_path.filename().string();
    for (const auto& entry : std::filesystem::directory_iterator(*dir, ec))
        if (::fnmatch(leaf.c_str(), entry.path().filename().c_str(), 0) == 0)
            out.push_back((as_path.parent_path() / entry.path().filename()).string());
    std::sort(out.begin(), out.end());
    return out;
}

void read_ld_so_conf(
    const std::filesystem::path& root, const std::string& file, int depth, std::vector<std::string>& dirs)
{
    auto host = rootfs::lookup(root, file);
    std::error_code ec;
    if (!host || depth > 8 || !std::filesystem::is_regular_file(*host, ec))
        return;
    std::istringstream lines(read_file(*host));
    for (std::string line; std::getline(lines, line);) {
        line = line.substr(0, line.find('#'));
        std::istringstream words(line);
        std::string word;
        if (!(words >> word))
            continue;
        if (word == "include") {
            for (std::string pattern; words >> pattern;) {
                if (!pattern.starts_with("/"))
                    pattern = (std::filesystem::path(file).parent_path() / pattern).string();
                for (const auto& included : expand_include(root, pattern))
                    read_ld_so_conf(root, included, depth + 1, dirs);
            }
        } else if (word.starts_with("/")) {
            dirs.push_back(word);
        }
    }
}

std::vector<std::string> expand_origin(const std::vector<std::string>& paths, const std::string& origin)
{
    std::vector<std::string> out;
    for (std::string path : paths) {
        for (const std::string token : { "${ORIGIN}", "$ORIGIN" })
            for (std::size_t at = path.find(token); at != std::string::npos; at = path.find(token, at))
                path.replace(at, token.size(), origin);
        out.push_back(path);
    }
    return out;
}

struct Found {
    std::filesystem::path host;
    ElfDynamic elf;
};

// The first `name` in `dirs` that is an ELF object for `machine` (0: any).
std::optional<Found> search_dirs(const std::filesystem::path& root, const std::vector<std::string>& dirs,
    const std::string& name, std::uint16_t machine)
{
    for (const auto& dir : dirs) {
        auto host = rootfs::lookup(root, dir + "/" + name);
        std::error_code ec;
        if (!host || !std::filesystem::is_regular_file(*host, ec))
            continue;
        auto elf = read_elf_dynamic(*host);
        if (elf && (machine == 0 || elf->machine == machine))
            return Found { *host, std::move(*elf) };
    }
    return std::nullopt;
}

std::optional<Found> locate(const LibrarySearch& search, const ElfDynamic& from, const std::string& origin,
    const std::string& name, std::uint16_t machine)
{
    if (name.find('/') != std::string::npos)
        return search_dirs(search.root, { std::filesystem::path(name).parent_path().string() },
            std::filesystem::path(name).filename().string(), machine);
    std::vector<std::vector<std::string>> order;
    if (from.runpath.empty())
        order.push_back(expand_origin(from.rpath, origin));
    order.push_back(search.ld_library_path);
    order.push_back(expand_origin(from.runpath, origin));
    order.push_back(search.system_dirs);
    for (const auto& dirs : order)
        if (auto found = search_dirs(search.root, dirs, name, machine))
            return found;
    return std::nullopt;
}

} // namespace

std::vector<std::string> system_library_dirs(const std::filesystem::path& root)
{
    std::vector<std::string> dirs;
    read_ld_so_conf(root, "/etc/ld.so.conf", 0, dirs);
    dirs.insert(dirs.end(), k_default_dirs.begin(), k_default_dirs.end());
    return dirs;
}

Closure resolve_closure(const LibrarySearch& search, const std::string& image_path)
{
    auto start = rootfs::lookup(search.root, image_path);
    std::error_code ec;
    if (!start || !std::filesystem::is_regular_file(*start, ec))
        throw Error(ErrorCode::not_found, image_path + " is not a file in the image");
    Closure closure;
    auto elf = read_elf_dynamic(*start);
    if (!elf)
        throw Error(ErrorCode::invalid_input, image_path + " is not an ELF object");
    std::uint16_t machine = elf->machine;
    std::deque<Found> pending { { *start, std::move(*elf) } };
    std::set<std::string> seen { image_path_of(search.root, *start) };
    closure.loaded.push_back(image_path_of(search.root, *start));
    while (!pending.empty()) {
        Found object = std::move(pending.front());
        pending.pop_front();
        std::string self = image_path_of(search.root, object.host);
        std::string origin = std::filesystem::path(self).parent_path().string();
        std::vector<std::string> wanted = object.elf.needed;
        if (!object.elf.interpreter.empty())
            wanted.insert(wanted.begin(), object.elf.interpreter);
        for (const auto& name : wanted) {
            auto found = locate(search, object.elf, origin, name, machine);
            if (!found) {
                closure.missing.push_back({ name, self });
                continue;
            }
            std::string path = image_path_of(search.root, found->host);
            if (seen.insert(path).second) {
                closure.loaded.push_back(path);
                pending.push_back(std::move(*found));
            }
        }
    }
    return closure;
}

std::optional<std::string> find_library(const LibrarySearch& search, const std::string& soname)
{
    std::vector<std::string> dirs = search.ld_library_path;
    dirs.insert(dirs.end(), search.system_dirs.begin(), search.system_dirs.end());
    auto found = search_dirs(search.root, dirs, soname, 0);
    return found ? std::optional(image_path_of(search.root, found->host)) : std::nullopt;
}

} // namespace dlenv::verify
