#pragma once

#include "lock/lockfile.h"
#include "matrix/matrix.h"

#include <filesystem>
#include <string>

namespace dlenv::image {

// Renders templates/Dockerfile.in (compiled in) for `lock`: the base pinned by digest
// when the lock has one, the same environment and labels a `dlenv build` image carries,
// the files the lock pins copied with their modes from files/, the lock itself, and the
// lock's packages installed by pip with --require-hashes.
std::string render_dockerfile(const lock::Lockfile& lock, const matrix::Matrix& matrix);

// Writes `dockerfile` and the build context beside it, so that `docker build -f
// DOCKERFILE DIR` needs nothing else: dlenv.lock.json, files/<path in the image> for each
// file the lock pins (read from beside the lockfile, as plan_layers checked them), and
// requirements.lock.txt when the lock pins packages. `dockerfile` is an OutputFile: "-"
// (for `docker build -f - .`), a device or a FIFO get the Dockerfile and the context goes
// to the working directory.
void write_docker_context(
    const lock::Lockfile& lock, const std::filesystem::path& dockerfile, const matrix::Matrix& matrix);

} // namespace dlenv::image
