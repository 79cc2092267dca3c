#include "deb/index.h"

#include "core/error.h"
#include "core/sha256.h"

namespace dlenv::deb {
namespace {

[[noreturn]] void fail(const std::string& file, const Stanza& stanza, const std::string& field, const std::string& why)
{
    throw Error(ErrorCode::invalid_input, file + ":" + std::to_string(stanza.line) + ": " + field + ": " + why);
}

std::string required(const std::string& file, const Stanza& stanza, const std::string& field)
{
    std::optional<std::string> value = stanza.find(field);
    if (!value || value->empty())
        fail(file, stanza, field, "missing");
    return *value;
}

std::vector<std::string> words(std::string_view text)
{
    std::vector<std::string> out;
    std::string word;
    for (char c : text) {
        if (c == ' ' || c == '\t' || c == '\n') {
            if (!word.empty())
                out.push_back(std::move(word));
            word.clear();
        } else
            word += c;
    }
    if (!word.empty())
        out.push_back(std::move(word));
    return out;
}

std::int64_t size_of(const std::string& file, const Stanza& stanza, const std::string& field, const std::string& text)
{
    if (text.empty() || text.size() > 15 || text.find_first_not_of("0123456789") != std::string::npos)
        fail(file, stanza, field, "expected a size in bytes, got '" + text.substr(0, 32) + "'");
    return std::stoll(text);
}

bool is_pool_path(const std::string& path)
{
    if (path.empty() || path.front() == '/' || !path.ends_with(".deb") || path.size() > 1024)
        return false;
    std::size_t start = 0;
    while (start <= path.size()) {
        std::size_t end = std::min(path.find('/', start), path.size());
        std::string_view part(path.data() + start, end - start);
        if (part.empty() || part == "." || part == "..")
            return false;
        for (char c : part)
            if (static_cast<unsigned char>(c) < 0x21 || c == 0x7f || c == '\\')
                return false;
        start = end + 1;
    }
    return true;
}

} // namespace

Release parse_release(const std::string& file, std::string_view text)
{
    std::vector<Stanza> stanzas = parse_control(file, text, { 1, 200, 64 << 20 });
    if (stanzas.empty())
        throw Error(ErrorCode::invalid_input, file + ": empty");
    const Stanza& stanza = stanzas.front();
    std::optional<std::string> sums = stanza.find("SHA256");
    if (!sums)
        throw Error(ErrorCode::invalid_input, file + ": no SHA256 field",
            "dlenv checks the Packages files against the Release's SHA256 sums; the archive must list them");
    Release release;
    std::size_t line = stanza.line;
    std::string_view rest = *sums;
    while (!rest.empty()) {
        std::size_t end = rest.find('\n');
        std::vector<std::string> parts = words(rest.substr(0, end));
        rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
        if (parts.empty())
            continue;
        if (parts.size() != 3 || !is_sha256_hex(parts[0]))
            throw Error(ErrorCode::invalid_input,
                file + ": SHA256: expected \"SHA256 SIZE PATH\" lines, near line " + std::to_string(line));
        release.files[parts[2]] = { parts[0], size_of(file, stanza, "SHA256", parts[1]) };
    }
    return release;
}

Package package_of(const std::string& file, const Stanza& stanza)
{
    std::string where = file + ":" + std::to_string(stanza.line);
    Package package { required(file, stanza, "Package"),
        DebVersion::parse(required(file, stanza, "Version"), where + ": Version"),
        required(file, stanza, "Architecture"), stanza.find("Multi-Arch").value_or(""), {}, {}, {}, {}, 0, {}, {} };
    if (!is_package_name(package.name))
        fail(file, stanza, "Package", "'" + package.name.substr(0, 64) + "' is not a package name");
    package.pre_depends = parse_relations(stanza.find("Pre-Depends").value_or(""), where + ": Pre-Depends");
    package.depends = parse_relations(stanza.find("Depends").value_or(""), where + ": Depends");
    for (auto& group : parse_relations(stanza.find("Provides").value_or(""), where + ": Provides")) {
        if (group.size() != 1 || (group[0].op != Relation::Op::any && group[0].op != Relation::Op::equal))
            fail(file, stanza, "Provides", "expected names, each with at most \"(= VERSION)\"");
        package.provides.push_back(std::move(group[0]));
    }
    return package;
}

std::vector<Package> parse_packages(const std::string& file, std::string_view text, const std::string& origin)
{
    std::vector<Package> packages;
    for (const auto& stanza : parse_control(file, text)) {
        Package package = package_of(file, stanza);
        package.filename = required(file, stanza, "Filename");
        if (!is_pool_path(package.filename))
            fail(file, stanza, "Filename", "'" + package.filename.substr(0, 128) + "' is not a path below the archive");
        package.size = size_of(file, stanza, "Size", required(file, stanza, "Size"));
        package.sha256 = required(file, stanza, "SHA256");
        if (!is_sha256_hex(package.sha256))
            fail(file, stanza, "SHA256", "expected 64 lowercase hexadecimal digits");
        package.origin = origin;
        packages.push_back(std::move(package));
    }
    return packages;
}

std::vector<Package> parse_status(const std::string& file, std::string_view text)
{
    std::vector<Package> installed;
    for (const auto& stanza : parse_control(file, text)) {
        std::vector<std::string> status = words(stanza.find("Status").value_or(""));
        if (status.size() != 3)
            fail(file, stanza, "Status", "expected \"WANT FLAG STATE\"");
        const std::string& state = status[2];
        if (state == "not-installed" || state == "config-files")
            continue;
        std::string name = stanza.find("Package").value_or("?");
        if (state != "installed" || status[1] != "ok")
            throw Error(ErrorCode::invalid_input,
                file + ":" + std::to_string(stanza.line) + ": " + name + " is " + status[1] + " " + state,
                "the base's dpkg database has a package left mid-install; repair the base (dpkg --configure -a) first");
        installed.push_back(package_of(file, stanza));
    }
    return installed;
}

} // namespace dlenv::deb
