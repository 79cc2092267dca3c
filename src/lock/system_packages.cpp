#include "lock/system_packages.h"

#include "lock/section_json.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace dlenv::lock {
namespace {

const char* const k_hint = "run `dlenv lock` again";

nlohmann::json to_json(const LockedArchive& archive)
{
    return { { "url", archive.url }, { "suites", archive.suites }, { "components", archive.components },
        { "origin", archive.origin }, { "release_sha256", archive.release_sha256 } };
}

nlohmann::json to_json(const LockedDeb& deb)
{
    return { { "name", deb.name }, { "version", deb.version }, { "architecture", deb.architecture },
        { "filename", deb.filename }, { "url", deb.url }, { "size", deb.size }, { "sha256", deb.sha256 },
        { "origin", deb.origin }, { "required_by", deb.required_by } };
}

LockedArchive read_archive(const JsonReader& field)
{
    field.allow_only({ "url", "suites", "components", "origin", "release_sha256" });
    LockedArchive archive { field.at("url").string(), field.at("suites").strings(), field.at("components").strings(),
        field.at("origin").string(), field.at("release_sha256").string_map() };
    for (const auto& [suite, sha256] : archive.release_sha256)
        read_sha256_hex(field.at("release_sha256").at(suite));
    return archive;
}

LockedDeb read_deb(const JsonReader& field)
{
    field.allow_only(
        { "name", "version", "architecture", "filename", "url", "size", "sha256", "origin", "required_by" });
    LockedDeb deb { field.at("name").string(), field.at("version").string(), field.at("architecture").string(),
        field.at("filename").string(), field.at("url").string(), field.at("size").non_negative_integer(),
        read_sha256_hex(field.at("sha256")), field.at("origin").string(), field.at("required_by").strings() };
    // A Debian file name is NAME_VERSION_ARCH.deb, the epoch's ':' written %3a: nothing a
    // shell or a Dockerfile line reads as more than a word.
    bool debian_characters = std::all_of(deb.filename.begin(), deb.filename.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c))
            || std::string_view("._+~%:-").find(c) != std::string_view::npos;
    });
    if (!deb.filename.ends_with(".deb") || !debian_characters || deb.filename.starts_with('.'))
        field.at("filename").fail("expected a .deb's file name", k_hint);
    return deb;
}

} // namespace

nlohmann::json to_json(const SystemPackagesSection& section)
{
    nlohmann::json packages = nlohmann::json::array();
    for (const auto& deb : section.packages)
        packages.push_back(to_json(deb));
    return { { "requested", section.requested }, { "architecture", section.architecture },
        { "archive", to_json(section.archive) }, { "base_status_sha256", section.base_status_sha256 },
        { "already_installed", section.already_installed }, { "packages", packages } };
}

SystemPackagesSection read_system_packages(const JsonReader& field)
{
    field.allow_only({ "requested", "architecture", "archive", "base_status_sha256", "already_installed", "packages" });
    SystemPackagesSection section { field.at("requested").strings(), field.at("architecture").string(),
        read_archive(field.at("archive")), read_sha256_hex(field.at("base_status_sha256")),
        field.at("already_installed").strings(), {} };
    for (const auto& item : field.at("packages").items())
        section.packages.push_back(read_deb(item));
    return section;
}

} // namespace dlenv::lock
