#include "pypi/metadata.h"

#include "core/error.h"
#include "core/text.h"
#include "pypi/name.h"
#include "pypi/wheel_archive.h"
#include "pypi/wheel_name.h"

#include <map>
#include <set>

namespace dlenv::pypi {
namespace {

// The header part of an RFC 822 message, continuation lines folded into their field.
std::vector<std::pair<std::string, std::string>> header_fields(std::string_view text)
{
    std::vector<std::pair<std::string, std::string>> fields;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        std::string_view line = text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
        pos = end == std::string_view::npos ? text.size() : end + 1;
        if (line.ends_with('\r'))
            line.remove_suffix(1);
        if (line.empty())
            break; // the body (the description) follows
        if ((line.front() == ' ' || line.front() == '\t') && !fields.empty()) {
            // A continuation line of blanks only continues the field with an empty line.
            std::size_t first = line.find_first_not_of(" \t");
            fields.back().second += "\n" + std::string(first == std::string_view::npos ? "" : line.substr(first));
            continue;
        }
        std::size_t colon = line.find(':');
        if (colon == std::string_view::npos)
            continue;
        std::string_view value = line.substr(colon + 1);
        std::size_t start = value.find_first_not_of(" \t");
        fields.emplace_back(std::string(line.substr(0, colon)),
            start == std::string_view::npos ? "" : std::string(value.substr(start)));
    }
    return fields;
}

} // namespace

Metadata Metadata::parse(std::string_view text, const std::string& source)
{
    Metadata m;
    bool has_version = false;
    auto in_field = [&](const std::string& field, auto&& parse) {
        try {
            parse();
        } catch (const Error& e) {
            throw e.with_context(source + ": field " + field);
        }
    };
    // Not a structured binding: clang before 16 cannot capture one in the lambdas below.
    for (const auto& header : header_fields(text)) {
        const std::string& key = header.first;
        const std::string& value = header.second;
        std::string field = ascii_lowercase(key);
        if (field == "name")
            m.name = value;
        else if (field == "version")
            in_field(key, [&] {
                m.version = Pep440Version::parse(value);
                has_version = true;
            });
        else if (field == "requires-dist")
            in_field(key, [&] { m.requires_dist.push_back(Requirement::parse(value)); });
        else if (field == "requires-python")
            in_field(key, [&] { m.requires_python = SpecifierSet::parse(value); });
        else if (field == "provides-extra")
            m.provides_extra.push_back(normalize_name(value));
    }
    if (m.name.empty() || !has_version)
        throw Error(ErrorCode::invalid_input,
            source + ": the metadata has no " + (m.name.empty() ? "Name" : "Version") + " field",
            "rebuild the package: core metadata must name the project and its version");
    return m;
}

std::string dist_info_directory(
    const std::vector<std::string>& paths, const std::string& project, const std::string& wheel)
{
    std::set<std::string> found;
    for (const auto& path : paths) {
        std::string top = path.substr(0, path.find('/'));
        if (top.ends_with(".dist-info") && top.size() < path.size())
            found.insert(top);
    }
    if (found.size() != 1)
        throw Error(ErrorCode::invalid_input,
            "wheel " + wheel + " has " + std::to_string(found.size()) + " .dist-info directories, not one",
            "the wheel is malformed: rebuild it");
    const std::string& dir = *found.begin();
    if (normalize_name(dir.substr(0, dir.find('-'))) != project)
        throw Error(ErrorCode::invalid_input, "wheel " + wheel + ": " + dir + " is not the metadata of " + project,
            "the wheel is malformed: rebuild it");
    return dir;
}

Metadata read_wheel_metadata(const std::string& filename, const std::vector<std::string>& paths,
    const std::function<std::optional<std::string>(const std::string& member)>& read)
{
    WheelName wheel = WheelName::parse(filename);
    std::string member = dist_info_directory(paths, wheel.key(), filename) + "/METADATA";
    std::optional<std::string> text = read(member);
    if (!text)
        throw Error(
            ErrorCode::invalid_input, "wheel " + filename + " has no " + member, "the wheel is malformed: rebuild it");
    Metadata m = Metadata::parse(*text, filename + ":" + member);
    if (normalize_name(m.name) != wheel.key() || m.version != wheel.version)
        throw Error(ErrorCode::invalid_input,
            "wheel " + filename + ": its metadata says " + m.name + " " + m.version.str() + ", its file name "
                + wheel.distribution + " " + wheel.version.str(),
            "the wheel is malformed or renamed: use the file the project published");
    return m;
}

Metadata read_wheel_metadata(const std::filesystem::path& path)
{
    // One pass over the zip: the METADATA candidates are read as they come by.
    std::vector<std::string> paths;
    std::map<std::string, std::string> metadata_files; // member path -> contents
    WheelArchive archive(path);
    while (auto member = archive.next()) {
        paths.push_back(member->path);
        std::size_t slash = member->path.find('/');
        if (slash != std::string::npos && member->path.substr(slash + 1) == "METADATA")
            metadata_files[member->path] = archive.read_all();
    }
    return read_wheel_metadata(path.filename().string(), paths, [&](const std::string& member) {
        auto it = metadata_files.find(member);
        return it == metadata_files.end() ? std::nullopt : std::optional<std::string>(it->second);
    });
}

} // namespace dlenv::pypi
