#pragma once

#include "image/base_python.h"
#include "image/docker_wheels.h"
#include "lock/lockfile.h"
#include "matrix/matrix.h"
#include "store/store.h"

#include <filesystem>
#include <optional>
#include <string>

namespace dlenv::image {

// Renders templates/Dockerfile.in (compiled in) for `lock`: the base pinned by digest
// when the lock has one, the same environment and labels a `dlenv build` image carries,
// the files the lock pins copied with their modes from files/, the lock itself, and the
// lock's Python (python_steps): its packages installed by pip, each checked against its
// sha256, into the directories `dlenv build` puts them in: `packages`, where the build put
// them, or, when the base was not read (nullopt), asked of the image's python3 as it builds.
// Before everything the lock adds, as their layer is right above the base in `dlenv
// build`'s image, the lock's system packages, installed by the image's dpkg from debs/
// (system_steps). Equal arguments give equal bytes.
std::string render_dockerfile(
    const lock::Lockfile& lock, const matrix::Matrix& matrix, const std::optional<PackagesTarget>& packages);

// Writes `dockerfile` and the build context beside it, so that `docker build -f
// DOCKERFILE DIR` (or `podman build`) needs nothing else: dlenv.lock.json, kit/,
// files/<path in the image> for each file the lock pins (read from beside the lockfile,
// as plan_layers checked them), debs/ with the .debs of its system packages
// (write_context_debs) and, when the lock pins packages, wheels/ with what pip
// reads (requirements.txt, install_packages.py when the Dockerfile asks the image's
// python3) and the wheels `wheels` says go there, copied from `store`'s artifacts
// (copy_context_wheels; Error(not_found) when one is missing or `store` is null, before
// the Dockerfile is written). `dockerfile` is an OutputFile: "-" (for `docker build -f - .`), a device or a
// FIFO get the Dockerfile and the context goes to the working directory.
void write_docker_context(const lock::Lockfile& lock, const std::filesystem::path& dockerfile,
    const matrix::Matrix& matrix, const std::optional<PackagesTarget>& packages, DockerWheels wheels,
    const store::Store* store);

} // namespace dlenv::image
