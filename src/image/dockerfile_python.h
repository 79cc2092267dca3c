#pragma once

#include "image/base_python.h"
#include "image/docker_wheels.h"
#include "lock/lockfile.h"

#include <optional>
#include <string>

namespace dlenv::image {

// Where the Dockerfile's install step finds the context's wheels/: bind-mounted for that
// step only, so that no wheel stays in the image, as none does in `dlenv build`'s.
constexpr std::string_view k_docker_wheels_dir = "/tmp/dlenv-wheels";

// The Dockerfile's steps for the lock's Python: the runtime it pins, unpacked under its
// prefix by checksum, then its packages installed by pip from wheels/ of the context
// (docker_requirements), into the directories `dlenv build` puts them in. `target` is
// where the build put them (packages_target, read from the base's files): pip gets that
// interpreter and its exact --prefix, and --break-system-packages only when the base marks
// its Python EXTERNALLY-MANAGED. Without it (the base was not read), a lock with a runtime
// still knows its directories; any other renders a step that runs install_packages.py
// with the image's own python3, which asks its sysconfig when the image builds. Each step
// says in comments why. "# The lock pins no packages." when it pins none.
std::string python_steps(const lock::Lockfile& lock, const std::optional<PackagesTarget>& target);

// Whether python_steps asks the image's python3 (install_packages.py) for `target`.
bool asks_image_python(const lock::Lockfile& lock, const std::optional<PackagesTarget>& target);

// templates/install_packages.py.in, which the context carries in wheels/ for that step.
std::string install_packages_script();

} // namespace dlenv::image
