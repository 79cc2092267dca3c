#pragma once

#include "lock/packages.h"
#include "pypi/resolver.h"

#include <filesystem>
#include <functional>
#include <vector>

namespace dlenv::lock {

// The sources of a lock made from a local folder of wheels, without a network: one
// index, "wheelhouse", at file:// + the folder's absolute path, for every project.
PackageSources wheelhouse_sources(const std::filesystem::path& directory);

// Resolves `request` against the indexes `sources` names (simple APIs over http(s), or a
// wheelhouse at a file:// URL), each project from the index assigned to it. Returns the
// closure sorted by name, each package naming its index as `sources` does. Errors are
// the resolver's: Error(conflict) with the chain of requirements, Error(network) when
// an index does not answer. `progress` hears each index request as it starts ("numpy
// from pypi", "metadata of numpy-1.26.2-....whl from pypi").
std::vector<LockedPackage> lock_packages(const pypi::ResolveRequest& request, const PackageSources& sources,
    const std::function<void(const std::string&)>& progress = {});

} // namespace dlenv::lock
