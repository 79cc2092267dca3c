#include "deb/default_archive.h"

#include "core/error.h"

namespace dlenv::deb {

std::map<std::string, std::string> parse_os_release(std::string_view text)
{
    std::map<std::string, std::string> fields;
    while (!text.empty()) {
        std::size_t end = text.find('\n');
        std::string line(text.substr(0, end));
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
        std::size_t equals = line.find('=');
        if (line.empty() || line.front() == '#' || equals == std::string::npos)
            continue;
        std::string value = line.substr(equals + 1);
        if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
            value = value.substr(1, value.size() - 2);
        fields[line.substr(0, equals)] = value;
    }
    return fields;
}

ArchiveSource default_archive(const std::map<std::string, std::string>& os_release)
{
    auto field = [&](const std::string& key) {
        auto it = os_release.find(key);
        return it == os_release.end() ? std::string() : it->second;
    };
    std::string id = field("ID");
    std::string codename = field("VERSION_CODENAME");
    std::string hint = "name the archive in the profile's system_archive (url, suites, components)";
    if (id != "debian" && id != "ubuntu")
        throw Error(ErrorCode::invalid_input,
            "the base's os-release says ID=" + (id.empty() ? "(none)" : id) + ", not debian or ubuntu", hint);
    if (codename.empty())
        throw Error(ErrorCode::invalid_input, "the base's os-release has no VERSION_CODENAME", hint);
    std::string origin = "default for " + id + " " + field("VERSION_ID") + " (" + codename + ")";
    if (id == "debian")
        return { "https://deb.debian.org/debian", { codename, codename + "-updates" }, { "main" }, origin };
    return { "http://archive.ubuntu.com/ubuntu", { codename, codename + "-updates" }, { "main", "universe" }, origin };
}

} // namespace dlenv::deb
