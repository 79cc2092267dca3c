#pragma once

#include "lock/lockfile.h"
#include "matrix/matrix.h"

#include <filesystem>
#include <string>

namespace dlenv::build {

// Renders templates/Dockerfile.in (compiled in) for the lock at `lock_path`: the base
// pinned by digest when the lock has one, the same environment and labels a `dlenv
// build` image carries, the files the lock pins copied with their modes, and the
// lock's packages installed by pip with --require-hashes. The build context is the
// lockfile's directory.
std::string render_dockerfile(const lock::Lockfile& lock, const std::filesystem::path& lock_path,
                              const matrix::Matrix& matrix);

// The lock's packages as a pip requirements file: "name==version --hash=sha256:...".
std::string requirements_lock(const lock::Lockfile& lock);

} // namespace dlenv::build
