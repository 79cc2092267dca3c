#pragma once

#include "lock/lockfile.h"
#include "oci/descriptor.h"
#include "verify/image.h"
#include "verify/library_resolver.h"
#include "verify/promises.h"
#include "verify/report.h"

#include <filesystem>
#include <optional>
#include <vector>

namespace dlenv::verify {

// The checks of the static tier that read the unpacked image without running it. Each
// appends its findings (pass or fail, one per thing checked) and throws only for an
// unreadable rootfs.

// The lock in /opt/dlenv/dlenv.lock.json parses, and its digest equals the manifest's
// dev.dlenv.lock.digest annotation (the lock the image was built from). Returns it when
// it parses, so the other checks can ask it what was promised.
std::optional<lock::Lockfile> check_kit_lock(
    const std::filesystem::path& rootfs, const oci::Manifest& manifest, std::vector<Finding>& findings);

// Each pinned file is a regular file with the pinned size and sha256.
void check_files(
    const std::filesystem::path& rootfs, const std::vector<lock::LockedFile>& files, std::vector<Finding>& findings);

// Each promised library is found by its soname, its DT_NEEDED closure resolves inside
// the image, and the version its file name carries agrees with its component's version
// on the parts both have (libcudnn.so.8.9.6 is cuDNN 8.9.6.50); a library with no
// promised version gets an unknown (skipped) version finding.
void check_libraries(
    const LibrarySearch& search, const std::vector<PromisedLibrary>& libraries, std::vector<Finding>& findings);

// Each pinned package has a dist-info directory whose METADATA names the pinned version.
void check_packages(
    const std::filesystem::path& rootfs, const std::vector<PromisedPackage>& packages, std::vector<Finding>& findings);

// The program the image runs: the entrypoint, or the interpreter of its #! line, as an
// image path. nullopt (with a failed finding) when it cannot be found in the image.
std::optional<std::string> check_entrypoint(
    const LibrarySearch& search, const ImageProcess& process, std::vector<Finding>& findings);

// The directories a program is looked up in: the image's PATH, else the default one.
std::string program_search_path(const std::vector<std::string>& env);

// Looks `program` up in the image: as given when it has a '/', else in the image's PATH.
std::optional<std::string> find_program(
    const std::filesystem::path& rootfs, const std::vector<std::string>& env, const std::string& program);

} // namespace dlenv::verify
