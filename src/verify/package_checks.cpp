#include "verify/static_checks.h"

#include "core/file.h"
#include "rootfs/lookup.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace dlenv::verify {
namespace {

// PEP 503 normalisation, which dist-info directory names follow with '_' for '-'.
std::string normalized(std::string name)
{
    std::replace_if(
        name.begin(), name.end(), [](char c) { return c == '-' || c == '.'; }, '_');
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    return name;
}

// The site directories Python installs of Debian, Ubuntu, RHEL and conda use, as image
// paths: every file under them is looked up again inside the rootfs, since any of them
// may be a link that leads out of it.
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

std::optional<std::string> metadata_version(const std::filesystem::path& metadata)
{
    std::istringstream lines(read_file(metadata));
    for (std::string line; std::getline(lines, line) && !line.empty();)
        if (line.starts_with("Version: "))
            return line.substr(9);
    return std::nullopt;
}

} // namespace

void check_packages(
    const std::filesystem::path& rootfs, const std::vector<PromisedPackage>& packages, std::vector<Finding>& findings)
{
    std::vector<std::string> sites = site_dirs(rootfs);
    for (const auto& package : packages) {
        std::optional<std::string> found;
        for (const auto& site : sites)
            for (const auto& name : rootfs::names_in(rootfs, site))
                if (!found && name.ends_with(".dist-info")
                    && normalized(name.substr(0, name.find('-'))) == normalized(package.name))
                    if (auto metadata = rootfs::lookup(rootfs, site + "/" + name + "/METADATA");
                        metadata && std::filesystem::is_regular_file(*metadata))
                        found = metadata_version(*metadata);
        if (!found)
            findings.push_back({ "package-version", Verdict::fail,
                package.name + " " + package.version + " is not installed in the image" });
        else if (*found != package.version)
            findings.push_back({ "package-version", Verdict::fail,
                package.name + " is " + *found + ", the lock pins " + package.version });
        else
            findings.push_back({ "package-version", Verdict::ok, package.name + " " + *found + " is installed" });
    }
}

} // namespace dlenv::verify
