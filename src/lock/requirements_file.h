#pragma once

#include "lock/lockfile.h"

#include <string>

namespace dlenv::lock {

// The lock's packages as a pip requirements file that `pip install --no-deps
// --require-hashes -r` installs exactly: one direct reference per wheel, its URL and its
// sha256 ("torch @ https://.../torch-2.1.2%2Bcu118-...whl --hash=sha256:..."), sorted by
// name, so no index is asked which file a name means. A lock whose packages were not
// locked is Error(invalid_input) saying how to lock them.
std::string requirements_file(const Lockfile& lock);

} // namespace dlenv::lock
