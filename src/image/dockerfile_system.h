#pragma once

#include "lock/lockfile.h"
#include "store/store.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::image {

// Where the Dockerfile's system packages step finds the context's debs/: bind-mounted for
// that step only, so that no .deb stays in the image, as none does in `dlenv build`'s.
constexpr std::string_view k_docker_debs_dir = "/tmp/dlenv-debs";

// The lock's .debs in the order dpkg installs them, one group per `dpkg --install`: each
// group's Depends and Pre-Depends (the lock's required_by) in earlier groups or in the
// group itself, a dependency cycle in one group, names sorted within a group. dpkg
// configures a group's packages in the order their Depends ask, but unpacks a package only
// once its Pre-Depends are configured (python3 pre-depends on python3-minimal), which one
// call for every .deb would not give. Empty for a lock without system packages.
std::vector<std::vector<lock::LockedDeb>> install_groups(const lock::Lockfile& lock);

// The Dockerfile's step for the lock's system packages: each .deb of debs/ checked against
// the sha256 the lock pins (debs/SHA256SUMS), then installed by the image's own dpkg,
// group by group, without a network. The comments say what the image then holds that
// `dlenv build`'s does not: what the maintainer scripts make. "# The lock pins no system
// packages." when it pins none.
std::string system_steps(const lock::Lockfile& lock);

// Writes debs/ of the context to `dir`: each .deb the lock pins, copied from `store`'s
// artifacts, and SHA256SUMS. A .deb the store lacks (or any, when `store` is null) is
// Error(not_found) saying to run `dlenv fetch`. Nothing for a lock without system packages.
void write_context_debs(const lock::Lockfile& lock, const store::Store* store, const std::filesystem::path& dir);

} // namespace dlenv::image
