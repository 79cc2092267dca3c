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
    // The store the base is brought into when the profile names system packages: they are
    // resolved against what the base's own files say it holds.
    std::filesystem::path store_dir;
    PackageProgress progress;
};

struct LockResult {
    // The report, with the stack when the profile works, and the base-cuda and base-cudnn
    // findings when the base was pinned.
    resolve::Resolution resolution;
    std::string path; // where the lock was written; empty when it was not
    // None, and nothing written, when the profile does not work or its framework does not
    // fit what the pinned base carries (a failed finding in the report).
    std::optional<lock::Lockfile> lockfile;
};

// Resolves the profile against `matrix` and the request's host, and when it works writes
// its lock to `path`: the profile's files pinned, then (unless offline) the base image's
// tag pinned to its digest and the lock's platform's manifest, with what that manifest's
// config says the base carries, then (unless offline without a wheelhouse) the Python
// closure pinned by sha256, then (unless offline) the system packages resolved against
// the base, brought into the store at `store_dir`, and the archive (lock::lock_system_packages).
// A pinned base is then held to the framework the lock pins
// (resolve::check_framework_on_base): its warnings go into the lock's, a failure leaves
// the lock unwritten. Errors are those of the steps; one pinning the base has the context
// "pin base image REF" and a hint naming --offline.
LockResult lock_profile(const matrix::Matrix& matrix, const LockRequest& request);

} // namespace dlenv::workflow
