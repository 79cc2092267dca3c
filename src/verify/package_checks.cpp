#include "verify/static_checks.h"

#include "verify/dist_info.h"

namespace dlenv::verify {

void check_packages(
    const std::filesystem::path& rootfs, const std::vector<PromisedPackage>& packages, std::vector<Finding>& findings)
{
    std::vector<std::string> sites = site_dirs(rootfs);
    for (const auto& package : packages) {
        std::optional<std::string> found;
        if (auto dist_info = find_dist_info(rootfs, sites, package.name))
            found = dist_info_version(rootfs, *dist_info);
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
