#include "deb/dpkg_database.h"

#include "core/error.h"
#include "deb/control.h"

#include <set>

namespace dlenv::deb {
namespace {

const std::string k_info = "var/lib/dpkg/info/";

// The control files dpkg keeps in its database, and whether each is run (0755).
const std::map<std::string, bool> k_kept = { { "preinst", true }, { "postinst", true }, { "prerm", true },
    { "postrm", true }, { "config", true }, { "md5sums", false }, { "conffiles", false }, { "triggers", false },
    { "shlibs", false }, { "symbols", false }, { "templates", false } };

std::vector<std::string> lines_of(const std::string& text)
{
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        if (end > start)
            lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

// md5sums lines are "MD5  path" with the path relative to the root.
std::map<std::string, std::string> md5_of(const std::string& md5sums)
{
    std::map<std::string, std::string> sums;
    for (const auto& line : lines_of(md5sums)) {
        std::size_t space = line.find(' ');
        if (space == std::string::npos)
            continue;
        std::size_t path = line.find_first_not_of(' ', space);
        if (path != std::string::npos)
            sums["/" + line.substr(line[path] == '/' ? path + 1 : path)] = line.substr(0, space);
    }
    return sums;
}

std::string status_stanza(const UnpackedPackage& package)
{
    auto control = package.control.find("control");
    if (control == package.control.end())
        throw Error(ErrorCode::invalid_input, package.name + ": control.tar has no control file");
    Stanza stanza = parse_single_stanza(package.name + ": control", control->second);
    std::string out;
    bool placed = false;
    for (const auto& line : lines_of(stanza.text)) {
        out += line + "\n";
        if (!placed && line.starts_with("Package:")) {
            out += "Status: install ok installed\n";
            placed = true;
        }
    }
    if (auto conffiles = package.control.find("conffiles"); conffiles != package.control.end()) {
        std::map<std::string, std::string> sums
            = md5_of(package.control.count("md5sums") ? package.control.at("md5sums") : "");
        std::string listed;
        for (const auto& [path, md5] : package.conffile_md5)
            sums[path] = md5;
        for (const auto& path : conffile_paths(conffiles->second))
            if (auto sum = sums.find(path); sum != sums.end())
                listed += " " + path + " " + sum->second + "\n";
        if (!listed.empty())
            out += "Conffiles:\n" + listed;
    }
    return out;
}

} // namespace

std::vector<std::string> conffile_paths(const std::string& conffiles)
{
    std::vector<std::string> paths;
    for (const auto& line : lines_of(conffiles))
        if (line.starts_with('/'))
            paths.push_back(line);
    return paths;
}

std::string database_name(const UnpackedPackage& package)
{
    return package.multi_arch == "same" ? package.name + ":" + package.architecture : package.name;
}

std::map<std::string, DatabaseFile> dpkg_database(
    const std::string& base_status, const std::vector<UnpackedPackage>& packages)
{
    std::map<std::pair<std::string, std::string>, std::string> stanzas; // (name, arch) -> text
    for (const auto& stanza : parse_control("the base's /var/lib/dpkg/status", base_status))
        stanzas[{ stanza.find("Package").value_or(""), stanza.find("Architecture").value_or("") }] = stanza.text;
    std::map<std::string, DatabaseFile> files;
    for (const auto& package : packages) {
        stanzas[{ package.name, package.architecture }] = status_stanza(package);
        std::string name = database_name(package);
        std::string list;
        for (const auto& path : package.paths)
            list += path + "\n";
        files[k_info + name + ".list"] = { list, 0644 };
        for (const auto& [file, contents] : package.control)
            if (auto kept = k_kept.find(file); kept != k_kept.end())
                files[k_info + name + "." + file] = { contents, kept->second ? 0755u : 0644u };
    }
    std::string status;
    for (const auto& [key, text] : stanzas)
        status += text + "\n";
    files["var/lib/dpkg/status"] = { status, 0644 };
    // The database layout whose Multi-Arch: same entries are NAME:ARCH (dpkg 1.16.2 and
    // later); without it dpkg reads the info directory as the older layout.
    files[k_info + "format"] = { "1\n", 0644 };
    return files;
}

} // namespace dlenv::deb
