#pragma once

#include "lock/lockfile.h"
#include "matrix/matrix.h"
#include "resolve/profile.h"
#include "resolve/stack.h"
#include "workflow/host_facts.h"
#include "workflow/package_sources.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace dlenv::workflow {

// Hears the Python closure being locked: `reading` each index request as it starts
// ("numpy from pypi"), then `finished` once, however locking ends. Either may be empty.
struct PackageProgress {
    std::function<void(const std::string&)> reading;
    std::function<void()> finished;
};

// What `dlenv lock` is asked to do.
struct LockRequest {
    resolve::Profile profile;
    HostRequest host;
    SourcesRequest sources;
    std::string output; // where the lock goes; empty: lockfiles/NAME.lock.json; "-": standard output
    std::optional<std::filesystem::path> files_root; // where the profile's files may be; default its directory
    bool offline = false; // ask no registry or index: the base stays unpinned, the packages too unless a wheelhouse
    bool insecure = false; // the base's registry as `dlenv pull --insecure`
    PackageProgress progress;
};

struct LockResult {
    resolve::Resolution resolution; // the report, with the stack when the profile works
    std::string path; // where the lock was written
    std::optional<lock::Lockfile> lockfile; // none, and nothing written, when the profile does not work
};

// Resolves the profile against `matrix` and the request's host, and when it works writes
// its lock to `path`: the profile's files pinned, then (unless offline) the base image's
// tag pinned to its digest and the lock's platform's manifest, then (unless offline
// without a wheelhouse) the Python closure pinned by sha256. Errors are those of the
// steps; one pinning the base has the context "pin base image REF" and a hint naming
// --offline.
LockResult lock_profile(const matrix::Matrix& matrix, const LockRequest& request);

} // namespace dlenv::workflow
