#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dlenv::lock {

// The apt archive the system packages were resolved against, with the sha256 of each
// suite's Release file as it was read.
struct LockedArchive {
    std::string url;
    std::vector<std::string> suites;
    std::vector<std::string> components;
    std::string origin; // "profile system_archive", or "default for debian 12 (bookworm)"
    std::map<std::string, std::string> release_sha256; // suite -> sha256 of its Release
};

// One .deb of the system packages' closure, as the archive's Packages file pins it.
struct LockedDeb {
    std::string name;
    std::string version; // Debian's, epoch included: "1:1.24.2-1+deb12u1"
    std::string architecture; // "amd64" or "all"
    std::string filename; // the .deb's name: "python3.11_3.11.2-6+deb12u6_amd64.deb"
    std::string url; // the archive's URL and the Packages file's Filename
    std::int64_t size = 0;
    std::string sha256; // lowercase hex
    std::string origin; // "bookworm/main": the suite and component that listed it
    std::vector<std::string> required_by; // package names, and "profile" for what the profile asks
};

// The distribution packages a profile adds to its base (system_packages), resolved
// against the base's dpkg status and the archive. Written into the lock only when the
// profile names system packages, so a lock without them keeps its bytes.
struct SystemPackagesSection {
    std::vector<std::string> requested; // the profile's system_packages, as written
    std::string architecture; // Debian's name: "amd64", "arm64"
    LockedArchive archive;
    std::string base_status_sha256; // of the base's /var/lib/dpkg/status they were resolved against
    std::vector<std::string> already_installed; // requested, and the base has them
    std::vector<LockedDeb> packages; // sorted by name
};

} // namespace dlenv::lock
