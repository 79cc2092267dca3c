#pragma once

#include "deb/index.h"

#include <string>
#include <vector>

namespace dlenv::deb {

// What to install: package names, for one architecture, on top of what a base has.
struct InstallRequest {
    std::vector<std::string> packages; // as the profile lists them
    std::string architecture; // "amd64": packages of it or of "all" are installed
};

struct ResolvedPackage {
    Package package;
    std::vector<std::string> required_by; // package names, sorted; "profile" for what was asked
};

struct Resolution {
    std::vector<ResolvedPackage> packages; // to install, sorted by name
    std::vector<std::string> already_installed; // asked for, and the base has them: nothing added
};

// Resolves the closure of `request` over Pre-Depends and Depends (Recommends and
// Suggests are not followed, as `apt-get install --no-install-recommends` does), the way
// a careful apt would without upgrading anything: a relation an installed package
// satisfies (by name or Provides) adds nothing; then one a package chosen already
// satisfies; else the first alternative that `available` can satisfy, with its newest
// version (a real package before a provider). The base's packages are never replaced.
// Errors:
//  - Error(invalid_input) "no package NAME in the archive" for a requested name that no
//    package has and none provides, with the names closest to it;
//  - Error(conflict) naming the chain from the request, every relation on the way as its
//    package writes it: "python3 -> python3.11 (>= 3.11.2-1~) -> libpython3.11-stdlib
//    (= 3.11.2-6): no version of libpython3.11-stdlib satisfies it; the archive has
//    3.11.2-5", "...: the base has libc6 2.36-9, which is too old, and dlenv does not
//    upgrade the base's packages", or a chosen package that a later relation does not admit.
Resolution resolve_install(
    const InstallRequest& request, const std::vector<Package>& available, const std::vector<Package>& installed);

} // namespace dlenv::deb
