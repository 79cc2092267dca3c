#include "verify/dist_info.h"

#include "core/file.h"
#include "core/text.h"
#include "rootfs/lookup.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace dlenv::verify {
namespace {

// A dist-info directory's file as text, nullopt when it is absent or no regular file.
std::optional<std::string> dist_info_file(
    const std::filesystem::path& rootfs, const std::string& dist_info, const std::string& file)
{
    std::error_code ec;
    auto path = rootfs::lookup(rootfs, dist_info + "/" + file);
    if (!path || !std::filesystem::is_regular_file(*path, ec))
        return std::nullopt;
    return read_file(*path);
}

std::vector<std::string> lines_of(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        line.erase(line.find_last_not_of(" \t\r") + 1);
        if (!line.empty())
            out.push_back(line);
    }
    return out;
}

// What a RECORD says of one top-level name.
struct TopLevel {
    bool importable = false; // a module file, or a directory with __init__.py
    std::set<std::string> subpackages; // its subdirectories with __init__.py
};

// A RECORD line's path: CSV, quoted when the path holds a comma.
std::string record_path(const std::string& line)
{
    if (line.starts_with('"'))
        return line.substr(1, line.find('"', 1) - 1);
    return line.substr(0, line.find(','));
}

bool is_module_file(const std::string& name)
{
    return name.ends_with(".py") || name.ends_with(".so");
}

// The RECORD's top-level names; files outside the site directory (../../bin/tool), the
// metadata and byte code are no modules.
std::map<std::string, TopLevel> record_top_levels(const std::string& record)
{
    std::map<std::string, TopLevel> out;
    for (const auto& line : lines_of(record)) {
        std::vector<std::string> parts;
        std::istringstream components(record_path(line));
        for (std::string part; std::getline(components, part, '/');)
            parts.push_back(part);
        if (parts.empty() || parts[0].empty() || parts[0] == ".." || parts[0] == "__pycache__"
            || parts[0].ends_with(".dist-info") || parts[0].ends_with(".data"))
            continue;
        if (parts.size() == 1) {
            // mod.py, or an extension module: mod.cpython-311-x86_64-linux-gnu.so.
            if (is_module_file(parts[0]))
                out[parts[0].substr(0, parts[0].find('.'))].importable = true;
            continue;
        }
        TopLevel& top = out[parts[0]];
        if (parts.size() == 2 && parts[1].starts_with("__init__.") && is_module_file(parts[1]))
            top.importable = true;
        else if (parts.size() == 3 && parts[2].starts_with("__init__.") && is_module_file(parts[2]))
            top.subpackages.insert(parts[0] + "." + parts[1]);
    }
    return out;
}

} // namespace

std::string normalized_name(std::string name)
{
    std::replace_if(
        name.begin(), name.end(), [](char c) { return c == '-' || c == '.'; }, '_');
    return ascii_lowercase(name);
}

std::vector<std::string> site_dirs(const std::filesystem::path& rootfs)
{
    std::vector<std::string> out;
    for (std::string base : { "/usr/lib", "/usr/local/lib", "/usr/lib64", "/usr/local/lib64", "/opt/conda/lib" })
        for (const auto& name : rootfs::names_in(rootfs, base))
            if (name.starts_with("python"))
                for (const char* site : { "/site-packages", "/dist-packages" })
                    if (auto dir = rootfs::lookup(rootfs, base + "/" + name + site);
                        dir && std::filesystem::is_directory(*dir))
                        out.push_back(base + "/" + name + site);
    std::sort(out.begin(), out.end());
    return out;
}

std::optional<std::string> find_dist_info(
    const std::filesystem::path& rootfs, const std::vector<std::string>& sites, const std::string& name)
{
    for (const auto& site : sites)
        for (const auto& entry : rootfs::names_in(rootfs, site))
            if (entry.ends_with(".dist-info")
                && normalized_name(entry.substr(0, entry.find('-'))) == normalized_name(name)
                && dist_info_file(rootfs, site + "/" + entry, "METADATA"))
                return site + "/" + entry;
    return std::nullopt;
}

std::optional<std::string> dist_info_version(const std::filesystem::path& rootfs, const std::string& dist_info)
{
    std::istringstream lines(dist_info_file(rootfs, dist_info, "METADATA").value_or(""));
    for (std::string line; std::getline(lines, line) && !line.empty();)
        if (line.starts_with("Version: "))
            return line.substr(9);
    return std::nullopt;
}

std::vector<std::string> dist_info_modules(const std::filesystem::path& rootfs, const std::string& dist_info)
{
    std::vector<std::string> names;
    if (auto top_level = dist_info_file(rootfs, dist_info, "top_level.txt"))
        names = lines_of(*top_level);
    auto record = dist_info_file(rootfs, dist_info, "RECORD");
    if (!record) {
        if (names.empty()) {
            std::string dir = std::filesystem::path(dist_info).filename().string();
            names.push_back(normalized_name(dir.substr(0, dir.find('-'))));
        }
        std::sort(names.begin(), names.end());
        return names;
    }
    std::map<std::string, TopLevel> tops = record_top_levels(*record);
    if (names.empty())
        for (const auto& [name, top] : tops)
            names.push_back(name);
    std::set<std::string> out;
    for (const auto& name : names)
        if (auto top = tops.find(name); top != tops.end()) {
            if (top->second.importable)
                out.insert(name);
            else
                out.insert(top->second.subpackages.begin(), top->second.subpackages.end());
        }
    return { out.begin(), out.end() };
}

} // namespace dlenv::verify
