#pragma once

#include "lock/system_packages.h"
#include "resolve/profile.h"

#include <functional>
#include <string>

namespace dlenv::lock {

// What a base holds that decides how distribution packages go onto it, as read from its
// layers: its os-release and dpkg status, each "" when it has none.
struct BaseSystem {
    std::string os_release;
    std::string dpkg_status;
};

// Debian's name of the architecture of a lock for `machine` ("x86_64" -> "amd64",
// "aarch64" -> "arm64").
std::string debian_architecture(const std::string& machine);

// Resolves the profile's system_packages against its system_archive (else the default
// archive of the base's os-release, deb::default_archive) and the base's installed
// packages, over HTTP. Errors: an input mistake (an unknown package, a name that is no
// package name, no archive to read) is Error(invalid_input) with the context "FILE:
// system_packages"; an unsatisfiable closure Error(conflict) with its chain; a base
// without dpkg Error(invalid_input); the archive's errors as deb::read_archive gives
// them. `progress` hears each URL read.
SystemPackagesSection lock_system_packages(const resolve::Profile& profile, const BaseSystem& base,
    const std::function<void(const std::string&)>& progress = {});

} // namespace dlenv::lock
