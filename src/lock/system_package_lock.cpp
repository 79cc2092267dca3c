#include "lock/system_package_lock.h"

#include "core/error.h"
#include "core/sha256.h"

#include "deb/archive.h"
#include "deb/default_archive.h"
#include "deb/resolver.h"
#include "http/client.h"
#include "http/url.h"
#include <algorithm>

namespace dlenv::lock {
namespace {

deb::ArchiveSource archive_of(const resolve::Profile& profile, const BaseSystem& base)
{
    if (profile.system_archive)
        return { profile.system_archive->url, profile.system_archive->suites, profile.system_archive->components,
            "profile system_archive" };
    return deb::default_archive(deb::parse_os_release(base.os_release));
}

std::string file_name(const std::string& path)
{
    return path.substr(path.find_last_of('/') + 1);
}

// The URL of a file below the archive. Over HTTP each path segment is percent-encoded,
// so a name with '%' or ':' (a local repository of `apt-get download`'s
// "libcrypt1_1%3a4.4.33-2_amd64.deb") names that file; a file:// URL is read as a path.
std::string url_below(const std::string& archive_url, const std::string& path)
{
    if (!archive_url.starts_with("http"))
        return archive_url + "/" + path;
    std::string url = archive_url;
    for (std::size_t start = 0; start <= path.size();) {
        std::size_t end = std::min(path.find('/', start), path.size());
        url += "/" + http::url_encode(std::string_view(path).substr(start, end - start));
        start = end + 1;
    }
    return url;
}

LockedDeb locked_deb(const deb::ResolvedPackage& resolved, const std::string& archive_url)
{
    const deb::Package& package = resolved.package;
    return { package.name, package.version.text(), package.architecture, file_name(package.filename),
        url_below(archive_url, package.filename), package.size, package.sha256, package.origin, resolved.required_by };
}

} // namespace

std::string debian_architecture(const std::string& machine)
{
    return machine == "aarch64" ? "arm64" : "amd64";
}

SystemPackagesSection lock_system_packages(
    const resolve::Profile& profile, const BaseSystem& base, const std::function<void(const std::string&)>& progress)
{
    std::string field = profile.file + ": system_packages";
    if (base.dpkg_status.empty())
        throw Error(ErrorCode::invalid_input,
            field + ": the base " + profile.base_image + " has no /var/lib/dpkg/status",
            "system packages go onto a Debian or Ubuntu base, whose dpkg database says what it holds");
    for (std::size_t i = 0; i < profile.system_packages.size(); ++i)
        if (!deb::is_package_name(profile.system_packages[i]))
            throw Error(ErrorCode::invalid_input,
                field + "[" + std::to_string(i) + "]: '" + profile.system_packages[i] + "' is not a package name",
                "Debian package names are lowercase letters, digits and + - . (Debian Policy 5.6.1)");
    std::string architecture = debian_architecture(profile.packages.machine);
    deb::ArchiveSource source;
    try {
        source = archive_of(profile, base);
    } catch (const Error& e) {
        throw e.with_context(field);
    }
    std::vector<deb::Package> installed = deb::parse_status("the base's /var/lib/dpkg/status", base.dpkg_status);
    http::Client client;
    deb::ArchiveIndex index = deb::read_archive(source, architecture, client, progress);
    deb::Resolution resolution;
    try {
        resolution = deb::resolve_install({ profile.system_packages, architecture }, index.packages, installed);
    } catch (const Error& e) {
        throw e.code() == ErrorCode::invalid_input ? e.with_context(field) : e;
    }
    SystemPackagesSection section { profile.system_packages, architecture,
        { source.url, source.suites, source.components, source.origin, {} }, sha256_hex(base.dpkg_status),
        resolution.already_installed, {} };
    for (const auto& release : index.releases)
        section.archive.release_sha256[release.suite] = release.sha256;
    for (const auto& resolved : resolution.packages)
        section.packages.push_back(locked_deb(resolved, source.url));
    return section;
}

} // namespace dlenv::lock
