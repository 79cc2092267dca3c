#pragma once

#include "core/time_text.h"
#include "image/builder.h"
#include "image/docker_wheels.h"
#include "matrix/matrix.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace dlenv::workflow {

// Where `dlenv build` puts the build image::prepare_build checked: the store, and the
// archive and Dockerfile it is also asked for (none when empty).
struct BuildIntoStoreRequest {
    std::filesystem::path store_dir;
    std::filesystem::path archive; // also a `docker load` tarball of NAME:latest; "-": standard output
    std::filesystem::path dockerfile; // also a Dockerfile and its context (image::write_docker_context)
    image::DockerWheels dockerfile_wheels = image::DockerWheels::context; // where its pip finds the wheels
    std::function<void(const std::string&)> progress; // hears each step; may be empty
    std::function<std::int64_t()> clock = now_seconds; // the time the history records
    std::string tool_version; // dlenv's, the SBOM's creator
};

// Builds the image `build` describes into the store at `store_dir` (created when
// missing, holding its writer lock) as image::build_image does, attaches its lock and its
// SPDX 2.3 SBOM to its digest (store/attachments.h, source "build"), then, when asked, the
// archive (oci::export_docker_archive, dated to the build's source_date_epoch; `progress`
// hears "docker archive PATH") and the Dockerfile with its context, its packages going
// where the build put them and its wheels from the store; a lock of several platforms
// has neither (Error(invalid_input)): each holds one image. Errors are those of
// the steps; the image stays built and tagged when the SBOM, the archive or the context fails.
image::BuildResult build_into_store(
    const image::BuildRequest& build, const BuildIntoStoreRequest& request, const matrix::Matrix& matrix);

} // namespace dlenv::workflow
